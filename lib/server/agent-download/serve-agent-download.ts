// GET /agent/download/<arch> and /agent/download/<arch>.sha256: the agent executable and its
// checksum, public like the install script that fetches them (neither holds a secret: the
// registration token is the operator's, given on the command line). The file is streamed from an
// open descriptor, so a rebuild during a download cannot mix two versions. Served twice over:
// by the gateway in front of Next.js (lib/gateway), which can send Content-Length, and by the
// app route as a fallback (Next.js drops a route's Content-Length and answers chunked).
import type { FileHandle } from "node:fs/promises";
import { open } from "node:fs/promises";
import type { IncomingMessage, ServerResponse } from "node:http";
import path from "node:path";
import { Readable } from "node:stream";
import { AGENT_ARCHES, agentDistDir, agentFileName, agentSha256, isAgentArch, type AgentArch } from "./agent-files";

export const DOWNLOAD_PREFIX = "/agent/download/";

type Answer =
  | { status: number; headers: Record<string, string>; json: { error: string } }
  | { status: 200; headers: Record<string, string>; text: string }
  | { status: 200; headers: Record<string, string>; file: FileHandle; size: number };

const error = (status: number, message: string): Answer => ({ status, headers: { "cache-control": "no-store" }, json: { error: message } });

function notBuilt(arch: AgentArch): Answer {
  if (arch === "linux-arm64" && process.arch !== "arm64") {
    return error(
      404,
      "No agent for linux-arm64 on this server: `npm run build:agent` builds the executable for the machine it runs on (Node cannot cross-build one), and this server's is x64. Build it on an arm64 machine and copy dist/agent/probebook-agent-linux-arm64 and its .sha256 here.",
    );
  }
  return error(404, `No agent for ${arch} on this server yet: run \`npm run build:agent\` on the server (it writes dist/agent/${agentFileName(arch)}).`);
}

/** `file` is the last path segment: `linux-x64` or `linux-x64.sha256`. An open file is the caller's to stream or close. */
async function answer(file: string, dir: string): Promise<Answer> {
  const wantsSum = file.endsWith(".sha256");
  const arch = wantsSum ? file.slice(0, -".sha256".length) : file;
  if (!isAgentArch(arch)) return error(400, `arch must be ${AGENT_ARCHES.join(" or ")} (optionally with .sha256), not "${arch.slice(0, 40)}"`);
  const name = agentFileName(arch);
  const full = path.join(dir, name);
  let handle: FileHandle;
  try {
    handle = await open(full, "r");
  } catch {
    return notBuilt(arch);
  }
  try {
    const st = await handle.stat();
    if (!st.isFile()) {
      await handle.close();
      return notBuilt(arch);
    }
    const digest = await agentSha256(full, st);
    if (wantsSum) {
      await handle.close();
      return { status: 200, headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-cache" }, text: `${digest}  ${name}\n` };
    }
    const headers = {
      "content-type": "application/octet-stream",
      "content-disposition": `attachment; filename="${name}"`,
      "x-checksum-sha256": digest,
      etag: `"${digest}"`,
      // no-transform: a proxy must not compress it, the checksum is of these bytes.
      "cache-control": "no-cache, no-transform",
    };
    return { status: 200, headers, file: handle, size: st.size };
  } catch (err) {
    await handle.close().catch(() => undefined);
    return error(503, `The agent file could not be read: ${err instanceof Error ? err.message : String(err)}; try again.`);
  }
}

/** For the app route (app/agent/download/[file]/route.ts); `dir` is dist/agent unless a test says. */
export async function serveAgentDownload(file: string, dir = agentDistDir()): Promise<Response> {
  const a = await answer(file, dir);
  if ("json" in a) return Response.json(a.json, { status: a.status, headers: a.headers });
  if ("text" in a) return new Response(a.text, { headers: a.headers });
  const body = Readable.toWeb(a.file.createReadStream({ autoClose: true })) as ReadableStream<Uint8Array>;
  return new Response(body, { headers: { ...a.headers, "content-length": String(a.size) } });
}

/** For the gateway: takes GET and HEAD under /agent/download/ and returns true; anything else is Next.js's. */
export function handleAgentDownload(req: IncomingMessage, res: ServerResponse, extraHeaders: Record<string, string>): boolean {
  if ((req.method !== "GET" && req.method !== "HEAD") || !req.url?.startsWith(DOWNLOAD_PREFIX)) return false;
  const segment = req.url.split("?")[0]!.slice(DOWNLOAD_PREFIX.length);
  // A deeper path or an escaped one is Next.js's to refuse (proxy.ts answers malformed escapes).
  if (segment.includes("/") || segment.includes("%")) return false;
  void answer(segment, agentDistDir()).then(
    (a) => {
      const head = req.method === "HEAD";
      if ("file" in a) {
        res.writeHead(200, { ...extraHeaders, ...a.headers, "content-length": a.size });
        if (head || res.destroyed) {
          void a.file.close();
          res.end();
          return;
        }
        const stream = a.file.createReadStream({ autoClose: true });
        res.on("close", () => stream.destroy());
        stream.pipe(res);
        return;
      }
      const body = "json" in a ? JSON.stringify(a.json) : a.text;
      const type = "json" in a ? "application/json; charset=utf-8" : a.headers["content-type"]!;
      res.writeHead(a.status, { ...extraHeaders, ...a.headers, "content-type": type, "content-length": Buffer.byteLength(body) });
      res.end(head ? undefined : body);
    },
    () => {
      res.writeHead(503, { ...extraHeaders, "content-type": "application/json; charset=utf-8" });
      res.end(JSON.stringify({ error: "The agent file could not be read; try again." }));
    },
  );
  return true;
}
