import { agentReply } from "@/lib/http/agent-reply";
import { finishRequestSchema } from "@/probes/protocol/schemas";
import { parseJsonBody, route } from "@/lib/http/handle-route";
import { authenticateAgent, runOfHost } from "@/lib/server/agent/authenticate-agent";
import { finishRun } from "@/lib/server/runs/finish-run";
import { uuidParam } from "@/lib/http/params";

export const dynamic = "force-dynamic";

export const POST = route(async (req: Request, ctx: { params: Promise<{ id: string }> }) => {
  const host = await authenticateAgent();
  const runId = uuidParam((await ctx.params).id, "run");
  await runOfHost(runId, host.id);
  const body = await parseJsonBody(req, finishRequestSchema, 2 * 1024 * 1024);
  return agentReply(await finishRun(runId, body));
});
