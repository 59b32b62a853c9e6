import { chunksRequestSchema } from "@/probes/agent/protocol";
import { parseJsonBody, route } from "@/lib/http/handle-route";
import { authenticateAgent, runOfHost } from "@/lib/server/agent/authenticate-agent";
import { storeChunks } from "@/lib/server/agent/store-chunks";
import { uuidParam } from "@/lib/http/params";

export const dynamic = "force-dynamic";

// 64 chunks of 64 Ki characters, JSON-escaped: comfortably under 32 MiB.
const MAX_BODY = 32 * 1024 * 1024;

export const POST = route(async (req: Request, ctx: { params: Promise<{ id: string }> }) => {
  const host = await authenticateAgent();
  const runId = uuidParam((await ctx.params).id, "run");
  await runOfHost(runId, host.id);
  const { chunks } = await parseJsonBody(req, chunksRequestSchema, MAX_BODY);
  return Response.json(await storeChunks(runId, chunks));
});
