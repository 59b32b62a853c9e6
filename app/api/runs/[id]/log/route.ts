import { requireActor } from "@/lib/auth/actor";
import { db } from "@/lib/db";
import { AppError } from "@/lib/http/app-error";
import { route } from "@/lib/http/handle-route";
import { uuidParam } from "@/lib/http/params";
import { readRunLog } from "@/lib/server/runs/read-log";

export const dynamic = "force-dynamic";

export const GET = route(async (_req: Request, ctx: { params: Promise<{ id: string }> }) => {
  await requireActor("VIEWER");
  const id = uuidParam((await ctx.params).id, "run");
  const run = await db().probeRun.findUnique({ where: { id }, select: { probe: true } });
  if (!run) throw new AppError("NOT_FOUND", `No run ${id}.`);
  return new Response(await readRunLog(id), {
    headers: { "content-type": "text/plain; charset=utf-8", "content-disposition": `inline; filename="${run.probe}-${id}.log"` },
  });
});
