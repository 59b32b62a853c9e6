import { requireActor } from "@/lib/auth/actor";
import { route } from "@/lib/http/handle-route";
import { uuidParam } from "@/lib/http/params";
import { cancelRun } from "@/lib/server/runs/cancel-run";

export const dynamic = "force-dynamic";

export const POST = route(async (_req: Request, ctx: { params: Promise<{ id: string }> }) => {
  await requireActor("OPERATOR");
  return Response.json(await cancelRun(uuidParam((await ctx.params).id, "run")));
});
