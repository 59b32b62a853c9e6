import { comparisonsApi } from "@/lib/api/comparisons";
import { audit } from "@/lib/server/audit/audit-request";
import { deleteComparison } from "@/lib/server/comparisons/delete-comparison";
import { comparisonJson, getComparison } from "@/lib/server/comparisons/get-comparison";
import { handle } from "../../handle";

export const dynamic = "force-dynamic";

/** Public: a shared comparison's frozen runs as JSON. */
export const GET = handle(comparisonsApi.get, async ({ params: { slug } }) => ({ status: 200, json: comparisonJson(await getComparison(slug)) }));

/** Deletes the comparison and its snapshot (its sharer or an admin); afterwards GET answers 404. */
export const DELETE = handle(comparisonsApi.delete, async ({ actor, params: { slug } }) => {
  const r = await deleteComparison({ slug: slug, actor });
  await audit({ actor, action: "share.delete", target: { type: "comparison", id: r.id }, details: { slug: r.slug, title: r.title } });
  return { status: 200, json: { deleted: r.slug } };
});
