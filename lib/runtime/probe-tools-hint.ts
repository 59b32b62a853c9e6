// What `npm start` says about the local agent's probe tools: which are missing and the command
// that installs them on this distribution (the same table as the host page and the agent use).
import { findOnPath } from "../../probes/profile/exec-tool";
import { installCommand, PROBE_TOOLS, readOsRelease, type OsRelease } from "../../probes/profile/install-commands";

/** Lines to print; none when every probe tool is on PATH. */
export async function probeToolsHint(
  pathEnv: string | undefined = process.env.PATH,
  isRoot: boolean = process.getuid?.() === 0,
  osRelease?: OsRelease | null,
): Promise<string[]> {
  const found = await Promise.all(PROBE_TOOLS.map((t) => findOnPath(t, pathEnv)));
  const missing = PROBE_TOOLS.filter((_, i) => found[i] === null);
  if (missing.length === 0) return [];
  const os = osRelease === undefined ? await readOsRelease() : osRelease;
  const lines = [
    `the local agent lacks ${missing.join(", ")}: those probes cannot run on this machine until they are installed`,
    `  install them with: ${installCommand(os, missing, { asRoot: isRoot })}`,
  ];
  if (isRoot) lines.push("  or let the agent do it now: npm run agent -- --install-tools");
  // The agent re-reads its tools on request: no restart needed (the host page's Re-check asks it).
  lines.push("  after installing, press Re-check tools on this machine's host page: the local agent reports its tools again, no restart needed");
  return lines;
}
