import { experimentsApi } from "@/lib/api/experiments";
import { experimentCsv, experimentExportJson } from "@/lib/server/experiments/export-experiment";
import { handle } from "../../../handle";

export const dynamic = "force-dynamic";

export const GET = handle(experimentsApi.export, async ({ params: { id }, query }) => {
  const name = `experiment-${id.slice(0, 8)}.${query.format}`;
  const headers = { "content-disposition": `attachment; filename="${name}"` };
  if (query.format === "csv") return { status: 200, type: "text/csv", text: await experimentCsv({ id }), headers };
  return { status: 200, json: await experimentExportJson({ id }), indent: true, headers };
});
