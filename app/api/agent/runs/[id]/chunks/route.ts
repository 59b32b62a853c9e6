import { agentApi } from "@/lib/api/agent";
import { ingestChunks } from "@/lib/server/agent/ingest-chunks";
import { handle } from "../../../../handle";

export const dynamic = "force-dynamic";

export const POST = handle(agentApi.chunks, async ({ agent, params: { id }, body: { chunks } }) => ({
  status: 200,
  json: await ingestChunks({ credentialHash: agent.credentialHash, runId: id, chunks }),
}));
