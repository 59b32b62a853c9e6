import { requireActor } from "@/lib/auth/actor";
import { route } from "@/lib/http/handle-route";
import { uuidParam } from "@/lib/http/params";
import { experimentCsv, experimentExportJson } from "@/lib/server/experiments/export-experiment";

export const dynamic = "force-dynamic";

export const GET = route(async (req: Request, ctx: { params: Promise<{ id: string }> }) => {
  await requireActor("VIEWER");
  const id = uuidParam((await ctx.params).id, "experiment");
  const csv = new URL(req.url).searchParams.get("format") === "csv";
  const name = `experiment-${id.slice(0, 8)}.${csv ? "csv" : "json"}`;
  const body = csv ? await experimentCsv({ id }) : JSON.stringify(await experimentExportJson({ id }), null, 2);
  return new Response(body, {
    headers: { "content-type": csv ? "text/csv; charset=utf-8" : "application/json", "content-disposition": `attachment; filename="${name}"` },
  });
});
