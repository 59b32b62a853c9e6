import { requireActor } from "@/lib/auth/actor";
import { route } from "@/lib/http/handle-route";
import { uuidParam } from "@/lib/http/params";
import { getRun } from "@/lib/server/runs/get-run";
import { getRunFindings } from "@/lib/server/runs/get-run-findings";

export const dynamic = "force-dynamic";

export const GET = route(async (_req: Request, ctx: { params: Promise<{ id: string }> }) => {
  await requireActor("VIEWER");
  const id = uuidParam((await ctx.params).id, "run");
  const run = await getRun(id);
  return Response.json({ ...run, findings: await getRunFindings({ runId: id }) });
});
