import { experimentsApi } from "@/lib/api/experiments";
import { audit } from "@/lib/server/audit/audit-request";
import { shareExperiment } from "@/lib/server/experiments/share-experiment";
import { handle } from "../../../handle";

export const dynamic = "force-dynamic";

export const POST = handle(experimentsApi.share, async ({ actor, params: { id }, body }) => {
  const { slug } = await shareExperiment({ id, createdById: actor.userId, include: body.include, expiresInDays: body.expiresInDays });
  await audit({ actor, action: "experiment.share", target: { type: "experiment", id }, details: { slug, include: body.include, expiresInDays: body.expiresInDays ?? null } });
  return { status: 201, json: { slug, path: `/c/${slug}` } };
});
