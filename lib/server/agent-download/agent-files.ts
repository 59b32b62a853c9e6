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

/** The one architecture this machine builds (Node offers no cross build), or null off Linux x64/arm64. */
export function localAgentArch(): AgentArch | null {
  const arch = `linux-${process.arch}`;
  return process.platform === "linux" && isAgentArch(arch) ? arch : null;
}

// One SHA-256 per file version: hashing 100 MB costs ~0.3 s, so it is done once per build, and
// concurrent first downloads share the same promise.
const digests = new Map<string, { key: string; digest: Promise<string> }>();

/** A file's SHA-256, read as a stream (the executable is ~100 MB); the build writes the same digest. */
export async function sha256File(file: string): Promise<string> {
  const hash = createHash("sha256");
  for await (const chunk of createReadStream(file)) hash.update(chunk as Buffer);
  return hash.digest("hex");
}

/** The file's SHA-256, cached by (path, inode, size, mtime): a rebuild is hashed again. */
export function agentSha256(file: string, st: Stats): Promise<string> {
  const key = `${st.ino}:${st.size}:${st.mtimeMs}`;
  const hit = digests.get(file);
  if (hit?.key === key) return hit.digest;
  const digest = sha256File(file);
  digests.set(file, { key, digest });
  digest.catch(() => digests.delete(file));
  return digest;
}
