// The agent trusts nothing the server sends: a compromised or buggy server must not be able to
// make a host run anything but a catalog probe, with valid parameters, inside --allow.
import { realpath, stat, statfs } from "node:fs/promises";
import { getProbe, probeIds, validateParams, type AnyProbe, type AnyProbeParams, type CommandSpec } from "../catalog";
import { findOnPath } from "../profile/exec-tool";
import { isInside } from "./path-inside";
import { makeRunDir, removeRunDir } from "./run-dir";
import type { Job } from "./protocol";

/** Head-room on top of what a probe writes: a file system at 100 % disturbs the measurement and the host. */
export const FREE_SPACE_MARGIN_BYTES = 64 * 1024 * 1024;

export type GuardResult =
  /** runDir: the run's private directory inside target; the caller removes it after the run. */
  | { ok: true; probe: AnyProbe; params: AnyProbeParams; command: CommandSpec; target: string; runDir: string }
  | { ok: false; reason: string };

export interface GuardOptions {
  allowedDirs: readonly string[];
  marginBytes?: number;
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

/** Validates a claimed job and builds its command, or says why it must not run. */
export async function guardJob(job: Job, opts: GuardOptions): Promise<GuardResult> {
  const probe = getProbe(job.probe);
  if (!probe) return refuse(`unknown probe "${job.probe.slice(0, 50)}": this agent runs only ${probeIds.join(", ")}`);
  if (JSON.stringify(job.params).includes("\\u0000")) return refuse("parameters must not contain NUL bytes");

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
  const allowed = await realDirs(opts.allowedDirs);
  if (!allowed.some((dir) => isInside(target, dir))) {
    const shown = target === requested ? requested : `${requested} (${target})`;
    return refuse(`target ${shown} is outside the allowed directories (${allowed.join(", ") || "none"})`);
  }
  if (!(await stat(target)).isDirectory()) return refuse(`target ${requested} is not a directory`);

  // The command is built from the real path, so swapping a symlink after this check changes nothing.
  const second = validateParams(probe.id, { ...first.params, target });
  if (!second.ok) return refuse(second.message);
  const params = second.params;

  const required = probe.requiredFreeBytes(params);
  if (required > 0) {
    const need = required + (opts.marginBytes ?? FREE_SPACE_MARGIN_BYTES);
    let free: number;
    try {
      free = await (opts.freeBytes ?? statfsFree)(target);
    } catch (err) {
      return refuse(`cannot tell the free space in ${target}: ${(err as Error).message}`);
    }
    if (free < need) return refuse(`needs ${gib(need)} GiB free in ${target}, has ${gib(free)} GiB`);
  }

  const file = await (opts.findTool ?? findOnPath)(probe.tool.binary);
  if (!file) return refuse(`${probe.tool.binary} is not installed on this host: ${probe.tool.installHint}`);

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
