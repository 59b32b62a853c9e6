import { requireActor } from "@/lib/auth/actor";
import { route } from "@/lib/http/handle-route";
import { uuidParam } from "@/lib/http/params";
import { audit } from "@/lib/server/audit/audit-request";
import { shareExperiment } from "@/lib/server/experiments/share-experiment";

export const dynamic = "force-dynamic";

export const POST = route(async (_req: Request, ctx: { params: Promise<{ id: string }> }) => {
  const actor = await requireActor("OPERATOR");
  const id = uuidParam((await ctx.params).id, "experiment");
  const { slug } = await shareExperiment({ id, createdById: actor.userId });
  await audit({ actor, action: "experiment.share", target: { type: "experiment", id }, details: { slug } });
  return Response.json({ slug, path: `/c/${slug}` }, { status: 201 });
});
