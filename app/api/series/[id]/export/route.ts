import { seriesApi } from "@/lib/api/series";
import { exportSeries } from "@/lib/server/series/export-series";
import type { SeriesDetail } from "@/lib/api/schemas/series";
import { handle } from "../../../handle";

export const dynamic = "force-dynamic";

export const GET = handle(seriesApi.export, async ({ params: { id }, query }) => {
  const headers = { "content-disposition": `attachment; filename="series-${id.slice(0, 8)}.${query.format}"` };
  const out = await exportSeries({ id, format: query.format });
  if ("text" in out) return { status: 200, type: "text/csv", text: out.text, headers };
  return { status: 200, json: out.json as SeriesDetail, indent: true, headers };
});
