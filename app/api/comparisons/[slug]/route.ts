import { route } from "@/lib/http/handle-route";
import { comparisonJson, getComparison } from "@/lib/server/comparisons/get-comparison";

export const dynamic = "force-dynamic";

/** Public: a shared comparison's frozen runs as JSON. */
export const GET = route(async (_req: Request, ctx: { params: Promise<{ slug: string }> }) => {
  const c = await getComparison((await ctx.params).slug);
  return Response.json(comparisonJson(c));
});
