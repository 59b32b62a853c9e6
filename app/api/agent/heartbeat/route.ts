import { agentApi } from "@/lib/api/agent";
import { authenticateAgent } from "@/lib/server/agent/authenticate-agent";
import { heartbeat } from "@/lib/server/agent/heartbeat";
import { handle } from "../../handle";

export const dynamic = "force-dynamic";

export const POST = handle(agentApi.heartbeat, async ({ agent, body }) => {
  const host = await authenticateAgent(agent.credentialHash);
  return { status: 200, json: await heartbeat(host.id, body) };
});
