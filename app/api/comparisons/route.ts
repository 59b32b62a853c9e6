import { comparisonsApi } from "@/lib/api/comparisons";
import { audit } from "@/lib/server/audit/audit-request";
import { createComparison } from "@/lib/server/comparisons/create-comparison";
import { serverUrl } from "@/lib/server/hosts/server-url";
import { handle } from "../handle";

export const dynamic = "force-dynamic";

/** Freezes runs into a public comparison. */
export const POST = handle(comparisonsApi.create, async ({ actor, body }) => {
  const { slug, id } = await createComparison(body, actor.userId);
  await audit({ actor, action: "share.create", target: { type: "comparison", id }, details: { slug, runIds: body.runIds, include: body.include, expiresInDays: body.expiresInDays ?? null } });
  return { status: 201, json: { slug, url: `${await serverUrl()}/c/${slug}` } };
});
