import { requireActor } from "@/lib/auth/actor";
import { route } from "@/lib/http/handle-route";
import { uuidParam } from "@/lib/http/params";
import { getRunLog } from "@/lib/server/runs/get-run-log";

export const dynamic = "force-dynamic";

export const GET = route(async (_req: Request, ctx: { params: Promise<{ id: string }> }) => {
  await requireActor("VIEWER");
  const id = uuidParam((await ctx.params).id, "run");
  const { probe, log } = await getRunLog({ id });
  return new Response(log, {
    headers: { "content-type": "text/plain; charset=utf-8", "content-disposition": `inline; filename="${probe}-${id}.log"` },
  });
});
