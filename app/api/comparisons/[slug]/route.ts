import { requireActor } from "@/lib/auth/actor";
import { route } from "@/lib/http/handle-route";
import { audit } from "@/lib/server/audit/audit-request";
import { deleteComparison } from "@/lib/server/comparisons/delete-comparison";
import { comparisonJson, getComparison } from "@/lib/server/comparisons/get-comparison";

export const dynamic = "force-dynamic";

/** Public: a shared comparison's frozen runs as JSON. */
export const GET = route(async (_req: Request, ctx: { params: Promise<{ slug: string }> }) => {
  const c = await getComparison((await ctx.params).slug);
  return Response.json(comparisonJson(c));
});

/** Deletes the comparison and its snapshot (its sharer or an admin): 200 { deleted: slug }; afterwards GET answers 404. */
export const DELETE = route(async (_req: Request, ctx: { params: Promise<{ slug: string }> }) => {
  const actor = await requireActor("OPERATOR");
  const r = await deleteComparison({ slug: (await ctx.params).slug, actor });
  await audit({ actor, action: "share.delete", target: { type: "comparison", id: r.id }, details: { slug: r.slug, title: r.title } });
  return Response.json({ deleted: r.slug });
});
