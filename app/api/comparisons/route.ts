import { requireActor } from "@/lib/auth/actor";
import { parseJsonBody, route } from "@/lib/http/handle-route";
import { createComparison, createComparisonSchema } from "@/lib/server/comparisons/create-comparison";
import { audit } from "@/lib/server/audit/audit-request";
import { serverUrl } from "@/lib/server/hosts/server-url";

export const dynamic = "force-dynamic";

/** Freezes runs into a public comparison: 201 { slug, url }. */
export const POST = route(async (req: Request) => {
  const actor = await requireActor("OPERATOR");
  const body = await parseJsonBody(req, createComparisonSchema, 64 * 1024);
  const { slug, id } = await createComparison(body, actor.userId);
  await audit({ actor, action: "share.create", target: { type: "comparison", id }, details: { slug, runIds: body.runIds, include: body.include, expiresInDays: body.expiresInDays ?? null } });
  return Response.json({ slug, url: `${await serverUrl()}/c/${slug}` }, { status: 201 });
});
