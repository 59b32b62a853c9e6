import { agentReply } from "@/lib/http/agent-reply";
import { MAX_HISTORY_OUTPUT_CHARS, historyDayRequestSchema } from "@/probes/protocol/schemas";
import { parseJsonBody, route } from "@/lib/http/handle-route";
import { authenticateAgent } from "@/lib/server/agent/authenticate-agent";
import { storeHistoryDay } from "@/lib/server/agent/store-history-day";

export const dynamic = "force-dynamic";

// sadf's JSON escaped once more inside the body (quotes, tabs, newlines): up to about twice its size.
const MAX_BODY_BYTES = 2 * MAX_HISTORY_OUTPUT_CHARS + 64 * 1024;

/** 201 with the new run, or 200 naming the run already stored for this host and day. */
export const POST = route(async (req: Request) => {
  const host = await authenticateAgent();
  const body = await parseJsonBody(req, historyDayRequestSchema, MAX_BODY_BYTES);
  const stored = await storeHistoryDay({ hostId: host.id, body });
  return agentReply(stored, { status: stored.created ? 201 : 200 });
});
