import { agentApi } from "@/lib/api/agent";
import { acceptFinalReport } from "@/lib/server/agent/accept-final-report";
import { agentHostOf, runOfHost } from "@/lib/server/agent/authenticate-agent";
import { finishRun } from "@/lib/server/runs/finish-run";
import { handle } from "../../../../handle";

export const dynamic = "force-dynamic";

export const POST = handle(agentApi.finish, async ({ agent, params: { id }, body }) => {
  const host = await agentHostOf(agent.credentialHash);
  // A credential no host holds: only the setup report of a run it had in flight when it was revoked.
  if (!host) return { status: 200, json: await acceptFinalReport({ runId: id, credentialHash: agent.credentialHash, finish: body }) };
  await runOfHost(id, host.id);
  return { status: 200, json: await finishRun({ runId: id, finish: body }) };
});
