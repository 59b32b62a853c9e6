import { agentReply } from "@/lib/http/agent-reply";
import { chunksRequestSchema } from "@/probes/protocol/schemas";
import { parseJsonBody, route } from "@/lib/http/handle-route";
import { uuidParam } from "@/lib/http/params";
import { agentCredentialHash } from "@/lib/server/agent/authenticate-agent";
import { ingestChunks } from "@/lib/server/agent/ingest-chunks";

export const dynamic = "force-dynamic";

// 64 chunks of 64 Ki characters, JSON-escaped: comfortably under 32 MiB.
const MAX_BODY = 32 * 1024 * 1024;

export const POST = route(async (req: Request, ctx: { params: Promise<{ id: string }> }) => {
  const credentialHash = await agentCredentialHash();
  const runId = uuidParam((await ctx.params).id, "run");
  const { chunks } = await parseJsonBody(req, chunksRequestSchema, MAX_BODY);
  return agentReply(await ingestChunks({ credentialHash, runId, chunks }));
});
