import { realpath } from "node:fs/promises";
import type { Capabilities } from "../protocol/schemas";
import { AGENT_VERSION } from "../agent/version";
import { AGENT_PROTOCOL_VERSION } from "../protocol/version";
import { allProbes } from "../catalog";
import type { VersionDetection } from "../core/probe";
import { findOnPath, runTool } from "./exec-tool";

/** Every binary the probes use, with its version detection (from each probe's ToolInfo). */
const DETECTED: ReadonlyMap<string, VersionDetection> = new Map(
  allProbes().flatMap((p) => [[p.tool.binary, p.tool.version] as const, ...(p.tool.companions ?? []).map((c) => [c.binary, c.version] as const)]),
);

export const CAPABILITY_TOOLS: readonly string[] = [...DETECTED.keys()];
export type CapabilityTool = string;

/** The version number in a tool's version output, read with the pattern its probe declares. */
export function parseToolVersion(tool: CapabilityTool, output: string): string | null {
  const m = DETECTED.get(tool)?.pattern.exec(output);
  return m?.[1]?.slice(0, 200) ?? null;
}

async function detectTool(tool: CapabilityTool, pathEnv: string | undefined): Promise<Capabilities["tools"][string]> {
  const found = await findOnPath(tool, pathEnv);
  if (found === null) return { installed: false, version: null, path: null };
  // Some tools print their version to stderr or exit non-zero after printing it: read both.
  const out = await runTool(found, DETECTED.get(tool)?.args ?? []);
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
  return { agentVersion: AGENT_VERSION, protocolVersion: AGENT_PROTOCOL_VERSION, tools: Object.fromEntries(entries), allowedDirs: dirs };
}
