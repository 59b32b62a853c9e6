import { runsApi } from "@/lib/api/runs";
import { audit } from "@/lib/server/audit/audit-request";
import { importRun } from "@/lib/server/runs/import-run";
import { handle } from "../../handle";

export const dynamic = "force-dynamic";

export const POST = handle(runsApi.import, async ({ actor, body }) => {
  const imported = await importRun({ input: body, createdById: actor.userId });
  await audit({ actor, action: "run.import", target: { type: "run", id: imported.id }, details: { probe: body.probe, ...(imported.ids.length > 1 ? { runs: imported.ids } : {}) } });
  return { status: 201, json: imported };
});
