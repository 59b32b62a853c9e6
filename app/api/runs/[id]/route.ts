import { requireActor } from "@/lib/auth/actor";
import { route } from "@/lib/http/handle-route";
import { uuidParam } from "@/lib/http/params";
import { getRun } from "@/lib/server/runs/get-run";

export const dynamic = "force-dynamic";

export const GET = route(async (_req: Request, ctx: { params: Promise<{ id: string }> }) => {
  await requireActor("VIEWER");
  return Response.json(await getRun(uuidParam((await ctx.params).id, "run")));
});
