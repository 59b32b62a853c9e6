// GET /agent/download/<arch> and /agent/download/<arch>.sha256: the agent executable and its
// checksum, public like the install script that fetches them (neither holds a secret: the
// registration token is the operator's, given on the command line). The file is streamed from an
// open descriptor, so a rebuild during a download cannot mix two versions.
import { open } from "node:fs/promises";
import path from "node:path";
import { Readable } from "node:stream";
import { AGENT_ARCHES, agentDistDir, agentFileName, agentSha256, isAgentArch, type AgentArch } from "./agent-files";

const json = (status: number, error: string) => Response.json({ error }, { status, headers: { "cache-control": "no-store" } });

function notBuilt(arch: AgentArch): Response {
  if (arch === "linux-arm64" && process.arch !== "arm64") {
    return json(
      404,
      "No agent for linux-arm64 on this server: `npm run build:agent` builds the executable for the machine it runs on (Node cannot cross-build one), and this server's is x64. Build it on an arm64 machine and copy dist/agent/probebook-agent-linux-arm64 and its .sha256 here.",
    );
  }
  return json(404, `No agent for ${arch} on this server yet: run \`npm run build:agent\` on the server (it writes dist/agent/${agentFileName(arch)}).`);
}

/** `file` is the last path segment: `linux-x64` or `linux-x64.sha256`. */
export async function serveAgentDownload(file: string): Promise<Response> {
  const wantsSum = file.endsWith(".sha256");
  const arch = wantsSum ? file.slice(0, -".sha256".length) : file;
  if (!isAgentArch(arch)) return json(400, `arch must be ${AGENT_ARCHES.join(" or ")} (optionally with .sha256), not "${arch.slice(0, 40)}"`);
  const name = agentFileName(arch);
  const full = path.join(agentDistDir(), name);
  let handle;
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
      return new Response(`${digest}  ${name}\n`, { headers: { "content-type": "text/plain; charset=utf-8", "cache-control": "no-cache" } });
    }
    const body = Readable.toWeb(handle.createReadStream({ autoClose: true })) as ReadableStream<Uint8Array>;
    return new Response(body, {
      headers: {
        "content-type": "application/octet-stream",
        "content-length": String(st.size),
        "content-disposition": `attachment; filename="${name}"`,
        "x-checksum-sha256": digest,
        etag: `"${digest}"`,
        "cache-control": "no-cache",
      },
    });
  } catch (err) {
    await handle.close().catch(() => undefined);
    return json(503, `The agent file could not be read: ${err instanceof Error ? err.message : String(err)}; try again.`);
  }
}
