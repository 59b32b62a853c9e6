import { comparisonsApi } from "@/lib/api/comparisons";
import { audit } from "@/lib/server/audit/audit-request";
import { revokeComparison } from "@/lib/server/comparisons/revoke-comparison";
import { handle } from "../../../handle";

export const dynamic = "force-dynamic";

/** Withdraws the share (its sharer or an admin); afterwards GET answers 410. */
export const POST = handle(comparisonsApi.revoke, async ({ actor, params: { slug } }) => {
  const r = await revokeComparison(slug, actor);
  await audit({ actor, action: "share.revoke", target: { type: "comparison", id: r.id }, details: { slug: r.slug } });
  return { status: 200, json: { revoked: r.slug } };
});
