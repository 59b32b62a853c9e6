import { requireActor } from "@/lib/auth/actor";
import { route } from "@/lib/http/handle-route";
import { uuidParam } from "@/lib/http/params";
import { experimentJson, getExperiment } from "@/lib/server/experiments/get-experiment";

export const dynamic = "force-dynamic";

export const GET = route(async (_req: Request, ctx: { params: Promise<{ id: string }> }) => {
  await requireActor("VIEWER");
  return Response.json(experimentJson(await getExperiment({ id: uuidParam((await ctx.params).id, "experiment") })));
});
