import { attachment, fileSlug, measurementsCsv } from "@/lib/compare/csv";
import { route } from "@/lib/http/handle-route";
import { getComparison } from "@/lib/server/comparisons/get-comparison";

export const dynamic = "force-dynamic";

/** Public: one CSV row per measurement of a shared comparison. */
export const GET = route(async (_req: Request, ctx: { params: Promise<{ slug: string }> }) => {
  const c = await getComparison((await ctx.params).slug);
  return new Response(measurementsCsv(c.runs), {
    headers: {
      "content-type": "text/csv; charset=utf-8",
      "content-disposition": attachment(`probebook-${fileSlug(c.title)}.csv`),
    },
  });
});
