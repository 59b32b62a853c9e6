import { runsApi } from "@/lib/api/runs";
import { audit } from "@/lib/server/audit/audit-request";
import { deleteRun } from "@/lib/server/runs/delete-run";
import { getRun } from "@/lib/server/runs/get-run";
import { getRunFindings } from "@/lib/server/runs/get-run-findings";
import { updateRun } from "@/lib/server/runs/update-run";
import { handle } from "../../handle";

export const dynamic = "force-dynamic";

export const GET = handle(runsApi.get, async ({ params: { id } }) => {
  const run = await getRun({ id });
  return { status: 200, json: { ...run, findings: await getRunFindings({ runId: id }) } };
});

/** Tags and note (its launcher or an admin). */
export const PATCH = handle(runsApi.update, async ({ actor, params: { id }, body }) => {
  const updated = await updateRun({ id, actor, input: body });
  await audit({ actor, action: "run.annotate", target: { type: "run", id }, details: { tags: updated.tags, notesChanged: body.notes !== undefined } });
  return { status: 200, json: updated };
});

/** Deletes a finished run with its log (its launcher or an admin). */
export const DELETE = handle(runsApi.delete, async ({ actor, params: { id } }) => {
  const r = await deleteRun({ id, actor });
  await audit({ actor, action: "run.delete", target: { type: "run", id }, details: { probe: r.probe, hostName: r.hostName } });
  return { status: 200, json: { deleted: id } };
});
