import { requireActor } from "@/lib/auth/actor";
import { route } from "@/lib/http/handle-route";
import { audit } from "@/lib/server/audit/audit-request";
import { revokeComparison } from "@/lib/server/comparisons/revoke-comparison";

export const dynamic = "force-dynamic";

/** Withdraws the share (its sharer or an admin): 200 { revoked: slug }; afterwards GET answers 410. */
export const POST = route(async (_req: Request, ctx: { params: Promise<{ slug: string }> }) => {
  const actor = await requireActor("VIEWER");
  const r = await revokeComparison((await ctx.params).slug, actor);
  await audit({ actor, action: "share.revoke", target: { type: "comparison", id: r.id }, details: { slug: r.slug } });
  return Response.json({ revoked: r.slug });
});
