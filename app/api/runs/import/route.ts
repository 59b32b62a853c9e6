import { requireActor } from "@/lib/auth/actor";
import { parseJsonBody, route } from "@/lib/http/handle-route";
import { importRun, importRunSchema, MAX_IMPORT_CHARS } from "@/lib/server/runs/import-run";

export const dynamic = "force-dynamic";

export const POST = route(async (req: Request) => {
  const actor = await requireActor("OPERATOR");
  // JSON escaping can double the size of control-heavy output.
  const body = await parseJsonBody(req, importRunSchema, 2 * MAX_IMPORT_CHARS + 64 * 1024);
  return Response.json(await importRun(body, actor.userId), { status: 201 });
});
