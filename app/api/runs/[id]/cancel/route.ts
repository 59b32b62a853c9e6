import { requireActor } from "@/lib/auth/actor";
import { route } from "@/lib/http/handle-route";
import { uuidParam } from "@/lib/http/params";
import { audit } from "@/lib/server/audit/audit-request";
import { cancelRun } from "@/lib/server/runs/cancel-run";

export const dynamic = "force-dynamic";

export const POST = route(async (_req: Request, ctx: { params: Promise<{ id: string }> }) => {
  const actor = await requireActor("OPERATOR");
  const id = uuidParam((await ctx.params).id, "run");
  const result = await cancelRun(id);
  await audit({ actor, action: "run.cancel", target: { type: "run", id } });
  return Response.json(result);
});
