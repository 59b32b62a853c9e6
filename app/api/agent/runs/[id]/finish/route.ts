import { agentApi } from "@/lib/api/agent";
import { authenticateAgent, runOfHost } from "@/lib/server/agent/authenticate-agent";
import { finishRun } from "@/lib/server/runs/finish-run";
import { handle } from "../../../../handle";

export const dynamic = "force-dynamic";

export const POST = handle(agentApi.finish, async ({ agent, params: { id }, body }) => {
  const host = await authenticateAgent(agent.credentialHash);
  await runOfHost(id, host.id);
  return { status: 200, json: await finishRun({ runId: id, finish: body }) };
});
