import { runsApi } from "@/lib/api/runs";
import { audit } from "@/lib/server/audit/audit-request";
import { importRun } from "@/lib/server/runs/import-run";
import { handle } from "../../../handle";

export const dynamic = "force-dynamic";

// The import of an uploaded file: the same use case as the JSON import, the file read as UTF-8
// only after handle() has checked its size (lib/api/runs.ts importFile).
export const POST = handle(runsApi.importFile, async ({ actor, body }) => {
  const { file, ...fields } = body;
  const imported = await importRun({ input: { ...fields, output: await file.text() }, createdById: actor.userId });
  await audit({ actor, action: "run.import", target: { type: "run", id: imported.id }, details: { probe: body.probe, file: file.name, bytes: file.size, ...(imported.ids.length > 1 ? { runs: imported.ids } : {}) } });
  return { status: 201, json: imported };
});
