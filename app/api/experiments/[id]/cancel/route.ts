import { requireActor } from "@/lib/auth/actor";
import { route } from "@/lib/http/handle-route";
import { uuidParam } from "@/lib/http/params";
import { audit } from "@/lib/server/audit/audit-request";
import { cancelExperiment } from "@/lib/server/experiments/cancel-experiment";

export const dynamic = "force-dynamic";

export const POST = route(async (_req: Request, ctx: { params: Promise<{ id: string }> }) => {
  const actor = await requireActor("OPERATOR");
  const id = uuidParam((await ctx.params).id, "experiment");
  const result = await cancelExperiment({ id });
  await audit({ actor, action: "experiment.cancel", target: { type: "experiment", id } });
  return Response.json(result);
});
