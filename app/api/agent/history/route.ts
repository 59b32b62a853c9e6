import { agentApi } from "@/lib/api/agent";
import { authenticateAgent } from "@/lib/server/agent/authenticate-agent";
import { storeHistoryDay } from "@/lib/server/agent/store-history-day";
import { handle } from "../../handle";

export const dynamic = "force-dynamic";

/** 201 with the new run, or 200 naming the run already stored for this host and day. */
export const POST = handle(agentApi.history, async ({ agent, body }) => {
  const host = await authenticateAgent(agent.credentialHash);
  const stored = await storeHistoryDay({ hostId: host.id, body });
  return { status: stored.created ? 201 : 200, json: stored };
});
