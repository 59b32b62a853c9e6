import { realpath } from "node:fs/promises";
import type { Capabilities } from "../protocol/schemas";
import { AGENT_VERSION } from "../agent/version";
import { findOnPath, runTool } from "./exec-tool";

export const CAPABILITY_TOOLS = ["iozone", "dd", "sar", "sadf", "fio"] as const;
export type CapabilityTool = (typeof CAPABILITY_TOOLS)[number];

const VERSION_FLAG: Record<CapabilityTool, string> = {
  iozone: "-v",
  dd: "--version",
  sar: "-V",
  sadf: "-V",
  fio: "--version",
};

const VERSION_PATTERN: Record<CapabilityTool, RegExp> = {
  // "        Version $Revision: 3.489 $"
  iozone: /Version \$Revision:\s*([\d.]+)/,
  // "dd (coreutils) 9.1"
  dd: /^dd \([^)]*\)\s+(\S+)/m,
  // "sysstat version 12.6.1"
  sar: /sysstat version\s+(\S+)/i,
  sadf: /sysstat version\s+(\S+)/i,
  // "fio-3.33"
  fio: /^fio-(\S+)/m,
};

/** The version number in a tool's version output, e.g. "3.489" from `iozone -v`. */
export function parseToolVersion(tool: CapabilityTool, output: string): string | null {
  const m = VERSION_PATTERN[tool].exec(output);
  return m?.[1]?.slice(0, 200) ?? null;
}

async function detectTool(tool: CapabilityTool, pathEnv: string | undefined): Promise<Capabilities["tools"][string]> {
  const found = await findOnPath(tool, pathEnv);
  if (found === null) return { installed: false, version: null, path: null };
  // Some tools print their version to stderr or exit non-zero after printing it: read both.
  const out = await runTool(found, [VERSION_FLAG[tool]]);
  const version = out ? parseToolVersion(tool, `${out.stdout}\n${out.stderr}`) : null;
  return { installed: true, version, path: found };
}

/** Which probe tools this host has, their versions, and the directories the agent may use. */
export async function detectCapabilities(
  allowedDirs: readonly string[],
  pathEnv: string | undefined = process.env.PATH,
): Promise<Capabilities> {
  const entries = await Promise.all(CAPABILITY_TOOLS.map(async (t) => [t, await detectTool(t, pathEnv)] as const));
  const dirs = await Promise.all(allowedDirs.map((d) => realpath(d).catch(() => d)));
  return { agentVersion: AGENT_VERSION, tools: Object.fromEntries(entries), allowedDirs: dirs };
}
