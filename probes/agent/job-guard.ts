// The agent trusts nothing the server sends: a compromised or buggy server must not be able to
// make a host run anything but a catalog probe, with valid parameters, inside --allow.
import { realpath, stat, statfs } from "node:fs/promises";
import { admitProbe, type Refusal } from "../admission";
import { getProbe, probeIds, validateParams, type AnyProbe, type AnyProbeParams, type CommandSpec } from "../catalog";
import { findOnPath } from "../profile/exec-tool";
import { isInside } from "./path-inside";
import { makeRunDir, removeRunDir } from "./run-dir";
import type { Job } from "../protocol/schemas";

export type GuardResult =
  /** runDir: the run's private directory inside target; the caller removes it after the run. */
  | { ok: true; probe: AnyProbe; params: AnyProbeParams; command: CommandSpec; target: string; runDir: string }
  | { ok: false; reason: string };

export interface GuardOptions {
  allowedDirs: readonly string[];
  findTool?: (file: string) => Promise<string | null>;
  freeBytes?: (dir: string) => Promise<number>;
}

const refuse = (reason: string): GuardResult => ({ ok: false, reason });
const gib = (bytes: number) => (bytes / 1024 ** 3).toFixed(2);

async function realDirs(dirs: readonly string[]): Promise<string[]> {
  const out: string[] = [];
  for (const d of dirs) {
    try {
      out.push(await realpath(d));
    } catch {
      // an allowed dir that vanished allows nothing
    }
  }
  return out;
}

async function statfsFree(dir: string): Promise<number> {
  const st = await statfs(dir);
  return st.bavail * st.bsize;
}

/** The admission refusal in the agent's words (sent to the server as the run's error). */
function reasonOf(r: Refusal, requested: string): string {
  switch (r.kind) {
    case "unknown-probe":
      return `unknown probe "${r.probe.slice(0, 50)}": this agent runs only ${probeIds.join(", ")}`;
    case "invalid-params":
      return r.message;
    case "outside-allowed": {
      const shown = r.target === requested ? requested : `${requested} (${r.target})`;
      return `target ${shown} is outside the allowed directories (${r.allowedDirs.join(", ") || "none"})`;
    }
    case "tool-missing":
      return `${r.probe.tool.binary} is not installed on this host: ${r.probe.tool.installHint}`;
    case "no-space":
      return `needs ${gib(r.needsBytes)} GiB free in ${r.target}, has ${gib(r.freeBytes)} GiB`;
    case "free-unknown":
      return `cannot tell the free space in ${r.target}: ${r.error}`;
  }
}

/**
 * Validates a claimed job and builds its command, or says why it must not run. The rule is the
 * server's (probes/admission.ts); this adds what only the host can tell: the target's real path,
 * its free space, the tool on PATH, and a private run directory checked with lstat.
 */
export async function guardJob(job: Job, opts: GuardOptions): Promise<GuardResult> {
  const probe = getProbe(job.probe);
  if (!probe) return refuse(reasonOf({ kind: "unknown-probe", probe: job.probe }, ""));
  if (JSON.stringify(job.params).includes("\\u0000")) return refuse("parameters must not contain NUL bytes");

  // Validated first for the target to resolve; admitProbe validates again with the real path.
  const first = validateParams(probe.id, job.params);
  if (!first.ok) return refuse(first.message);
  const requested = first.params.target;

  let target: string;
  try {
    target = await realpath(requested);
  } catch (err) {
    const code = (err as NodeJS.ErrnoException).code;
    return refuse(code === "ENOENT" ? `target ${requested} does not exist` : `cannot resolve target ${requested}: ${code ?? err}`);
  }
  // The command is built from the real path, so swapping a symlink after this check changes nothing.
  const facts = {
    allowedDirs: await realDirs(opts.allowedDirs),
    toolFile: await (opts.findTool ?? findOnPath)(probe.tool.binary),
    freeBytes: await (opts.freeBytes ?? statfsFree)(target).catch((err: unknown) => ({ unreadable: (err as Error).message })),
  };
  const admitted = admitProbe(
    { probe: probe.id, params: { ...first.params, target } },
    { allowedDirs: facts.allowedDirs, toolInstalled: facts.toolFile !== null, freeBytesIn: () => facts.freeBytes },
  );
  if (!admitted.ok) return refuse(reasonOf(admitted.refusal, requested));
  if (!(await stat(target)).isDirectory()) return refuse(`target ${requested} is not a directory`);
  const params = admitted.params;
  const file = facts.toolFile!;

  // Last, so that a refusal above leaves nothing behind.
  let runDir: string;
  try {
    runDir = await makeRunDir(target);
  } catch (err) {
    return refuse(err instanceof Error ? err.message : String(err));
  }
  const built = buildInRunDir(probe, params, runDir);
  if (typeof built === "string") {
    await removeRunDir(runDir);
    return refuse(built);
  }
  return { ok: true, probe, params, command: { ...built, file }, target, runDir };
}

/** The command, checked to stay inside its run directory, or why it cannot be built. */
function buildInRunDir(probe: AnyProbe, params: AnyProbeParams, runDir: string): CommandSpec | string {
  let command: CommandSpec;
  try {
    command = probe.buildCommand(params, runDir);
  } catch (err) {
    return `cannot build the ${probe.id} command: ${err instanceof Error ? err.message : String(err)}`;
  }
  if (command.file !== probe.tool.binary) return `the ${probe.id} command would run ${command.file}`;
  if (command.cwd !== runDir) return `the ${probe.id} command would run outside its run directory`;
  for (const f of [...(command.files ?? []), ...(command.layout ?? []).map((l) => l.file)]) {
    if (!isInside(f, runDir)) return `the ${probe.id} command names a scratch file outside its run directory: ${f}`;
  }
  return command;
}
