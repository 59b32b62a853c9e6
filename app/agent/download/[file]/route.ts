import { serveAgentDownload } from "@/lib/server/agent-download/serve-agent-download";

export const dynamic = "force-dynamic";

// Outside /api and its handle(): the answer is a 100 MB binary stream, which the operation
// machinery (JSON or text bodies) does not describe; ARCHITECTURE.md "Agent executable".
export async function GET(_req: Request, ctx: { params: Promise<{ file: string }> }): Promise<Response> {
  return serveAgentDownload((await ctx.params).file);
}
