import { agentReply } from "@/lib/http/agent-reply";
import { heartbeatRequestSchema } from "@/probes/protocol/schemas";
import { parseJsonBody, route } from "@/lib/http/handle-route";
import { authenticateAgent } from "@/lib/server/agent/authenticate-agent";
import { heartbeat } from "@/lib/server/agent/heartbeat";

export const dynamic = "force-dynamic";

export const POST = route(async (req: Request) => {
  const host = await authenticateAgent();
  const body = await parseJsonBody(req, heartbeatRequestSchema, 2 * 1024 * 1024);
  return agentReply(await heartbeat(host.id, body));
});
