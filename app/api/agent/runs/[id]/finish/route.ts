import { agentApi } from "@/lib/api/agent";
import { agentHandlers } from "@/lib/gateway/agent-handlers";
import { handleAgent } from "../../../../handle";

export const dynamic = "force-dynamic";

export const POST = handleAgent(agentApi.finish, agentHandlers.finish);
