import { requireActor } from "@/lib/auth/actor";
import { route } from "@/lib/http/handle-route";
import { uuidParam } from "@/lib/http/params";
import { runEventsQuerySchema } from "@/lib/http/query-schemas";
import { openRunEvents } from "@/lib/server/runs/open-run-events";

export const dynamic = "force-dynamic";

export const GET = route(async (req: Request, ctx: { params: Promise<{ id: string }> }) => {
  await requireActor("VIEWER");
  const id = uuidParam((await ctx.params).id, "run");
  const raw = req.headers.get("last-event-id") ?? new URL(req.url).searchParams.get("after") ?? undefined;
  const parsed = runEventsQuerySchema.safeParse({ after: raw });
  const after = parsed.success ? parsed.data.after : -1;
  return new Response(await openRunEvents({ id, after, signal: req.signal }), {
    headers: {
      "content-type": "text/event-stream; charset=utf-8",
      "cache-control": "no-cache, no-transform",
      connection: "keep-alive",
      "x-accel-buffering": "no",
    },
  });
});
