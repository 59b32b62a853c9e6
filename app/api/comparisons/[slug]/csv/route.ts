import { comparisonsApi } from "@/lib/api/comparisons";
import { attachment, fileSlug, measurementsCsv } from "@/lib/compare/csv";
import { getComparison } from "@/lib/server/comparisons/get-comparison";
import { handle } from "../../../handle";

export const dynamic = "force-dynamic";

/** Public: one CSV row per measurement of a shared comparison. */
export const GET = handle(comparisonsApi.csv, async ({ params: { slug } }) => {
  const c = await getComparison(slug);
  return { status: 200, type: "text/csv", text: measurementsCsv(c.runs), headers: { "content-disposition": attachment(`probebook-${fileSlug(c.title)}.csv`) } };
});
