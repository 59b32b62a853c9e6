import { runsApi } from "@/lib/api/runs";
import { runEventsQuerySchema } from "@/lib/http/query-schemas";
import { openRunEvents } from "@/lib/server/runs/open-run-events";
import { handle } from "../../../handle";

export const dynamic = "force-dynamic";

export const GET = handle(runsApi.events, async ({ req, params: { id }, query }) => {
  // A reconnecting EventSource sends Last-Event-ID, which wins over ?after=.
  const lastEventId = runEventsQuerySchema.shape.after.safeParse(req.headers.get("last-event-id") ?? undefined);
  const after = req.headers.has("last-event-id") && lastEventId.success ? lastEventId.data : query.after;
  return {
    status: 200,
    type: "text/event-stream",
    text: await openRunEvents({ id, after, signal: req.signal }),
    headers: { "cache-control": "no-cache, no-transform", connection: "keep-alive", "x-accel-buffering": "no" },
  };
});
