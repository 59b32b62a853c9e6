import { requireActor } from "@/lib/auth/actor";
import { parseJsonBody, route } from "@/lib/http/handle-route";
import { uuidParam } from "@/lib/http/params";
import { audit } from "@/lib/server/audit/audit-request";
import { deleteRun } from "@/lib/server/runs/delete-run";
import { getRun } from "@/lib/server/runs/get-run";
import { getRunFindings } from "@/lib/server/runs/get-run-findings";
import { updateRunSchema } from "@/lib/server/runs/run-tags";
import { updateRun } from "@/lib/server/runs/update-run";

export const dynamic = "force-dynamic";

export const GET = route(async (_req: Request, ctx: { params: Promise<{ id: string }> }) => {
  await requireActor("VIEWER");
  const id = uuidParam((await ctx.params).id, "run");
  const run = await getRun(id);
  return Response.json({ ...run, findings: await getRunFindings({ runId: id }) });
});

/** Tags and note (its launcher or an admin): 200 { id, tags, notes }. */
export const PATCH = route(async (req: Request, ctx: { params: Promise<{ id: string }> }) => {
  const actor = await requireActor("OPERATOR");
  const id = uuidParam((await ctx.params).id, "run");
  const input = await parseJsonBody(req, updateRunSchema, 16 * 1024);
  const updated = await updateRun({ id, actor, input });
  await audit({ actor, action: "run.annotate", target: { type: "run", id }, details: { tags: updated.tags, notesChanged: input.notes !== undefined } });
  return Response.json(updated);
});

/** Deletes a finished run with its log (its launcher or an admin): 200 { deleted: id }. */
export const DELETE = route(async (_req: Request, ctx: { params: Promise<{ id: string }> }) => {
  const actor = await requireActor("OPERATOR");
  const id = uuidParam((await ctx.params).id, "run");
  const r = await deleteRun({ id, actor });
  await audit({ actor, action: "run.delete", target: { type: "run", id }, details: { probe: r.probe, hostName: r.hostName } });
  return Response.json({ deleted: id });
});
