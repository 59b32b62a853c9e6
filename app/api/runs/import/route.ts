import { requireActor } from "@/lib/auth/actor";
import { parseJsonBody, route } from "@/lib/http/handle-route";
import { audit } from "@/lib/server/audit/audit-request";
import { importRun, importRunSchema, MAX_IMPORT_CHARS } from "@/lib/server/runs/import-run";

export const dynamic = "force-dynamic";

export const POST = route(async (req: Request) => {
  const actor = await requireActor("OPERATOR");
  // JSON escaping can double the size of control-heavy output.
  const body = await parseJsonBody(req, importRunSchema, 2 * MAX_IMPORT_CHARS + 64 * 1024);
  const imported = await importRun(body, actor.userId);
  await audit({ actor, action: "run.import", target: { type: "run", id: imported.id }, details: { probe: body.probe } });
  return Response.json(imported, { status: 201 });
});
