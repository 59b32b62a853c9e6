// The agent executables `npm run build:agent` leaves in dist/agent/ (scripts/build-agent-sea.ts),
// found and checksummed for GET /agent/download/<arch>. The server runs from the repository (or
// the image's app directory), so dist/agent is found from the working directory.
import { createHash } from "node:crypto";
import { createReadStream, type Stats } from "node:fs";
import path from "node:path";

export const AGENT_ARCHES = ["linux-x64", "linux-arm64"] as const;
export type AgentArch = (typeof AGENT_ARCHES)[number];

export const isAgentArch = (s: string): s is AgentArch => (AGENT_ARCHES as readonly string[]).includes(s);

export function agentDistDir(): string {
  return path.resolve(process.cwd(), "dist", "agent");
}

export const agentFileName = (arch: AgentArch) => `probebook-agent-${arch}`;

// One SHA-256 per file version: hashing 100 MB costs ~0.3 s, so it is done once per build, and
// concurrent first downloads share the same promise.
const digests = new Map<string, { key: string; digest: Promise<string> }>();

function hashFile(file: string): Promise<string> {
  return new Promise((resolve, reject) => {
    const hash = createHash("sha256");
    createReadStream(file)
      .on("data", (chunk) => hash.update(chunk))
      .on("error", reject)
      .on("end", () => resolve(hash.digest("hex")));
  });
}

/** The file's SHA-256, cached by (path, inode, size, mtime): a rebuild is hashed again. */
export function agentSha256(file: string, st: Stats): Promise<string> {
  const key = `${st.ino}:${st.size}:${st.mtimeMs}`;
  const hit = digests.get(file);
  if (hit?.key === key) return hit.digest;
  const digest = hashFile(file);
  digests.set(file, { key, digest });
  digest.catch(() => digests.delete(file));
  return digest;
}
