import { inTarget } from "../core/schemas";
import type { CommandSpec } from "../core/types";
import { buildFioJobFileCommand } from "./jobfile/command";
import { validateJobFile } from "./jobfile/validate";
import type { FioParams } from "./params";
import { buildSniaCommand } from "./snia/command";
import { steadyStateArgs } from "./steady-state";

export const FIO_FILE = "probebook-fio.tmp";

/** Prefix of fio's per-second logs: probebook_bw.1.log, probebook_iops.1.log, probebook_clat.1.log … (one per job). */
export const FIO_LOG_PREFIX = "probebook";
/** The logs the agent appends to the output (slat and lat are written too but not needed). */
export const FIO_COLLECT = /^probebook_(bw|iops|clat)\.\d+\.log$/;

/**
 * Percentiles of the completion latency fio reports (at most 20): dense enough to draw the whole
 * curve, from the median out to five nines.
 */
export const FIO_PERCENTILES = [1, 5, 10, 20, 25, 30, 40, 50, 60, 70, 75, 80, 90, 95, 99, 99.5, 99.9, 99.95, 99.99, 99.999] as const;

/**
 * fio splits directory= on ":" (a list of directories); a literal colon must be written "\:".
 * Backslashes are not unescaped by fio, which is why the params reject them in fio targets.
 */
export function fioDirectoryArg(target: string): string {
  return target.replace(/:/g, "\\:");
}

/** 5 MiB/s worst case for laying out and one pass over the file, plus two minutes of slack. */
export function fioTimeoutSec(params: FioParams): number {
  const passSec = Math.ceil(params.sizeMiB / 5);
  const layoutSec = params.rw === "read" || params.rw === "randread" || params.overwrite || params.runtimeSec !== undefined ? passSec : 0;
  return 120 + layoutSec + (params.runtimeSec ?? passSec * (params.loops ?? 1));
}

/** The file, its size and how it is reached: every fio command's (presets' and the SNIA rounds'). */
export function fileArgs(params: FioParams, runDir: string): string[] {
  return [
    `--size=${params.sizeMiB}m`,
    `--direct=${params.direct ? 1 : 0}`,
    `--directory=${fioDirectoryArg(runDir)}`,
    `--filename=${FIO_FILE}`,
    `--ioengine=${params.ioengine}`,
    `--iodepth=${params.iodepth}`,
  ];
}

/** fio writes its file into the run's private directory `runDir` (made by the agent inside the target). */
export function buildFioCommand(params: FioParams, runDir: string): CommandSpec {
  if (params.jobFile !== undefined) return buildFioJobFileCommand(params.jobFile, runDir, FIO_PERCENTILES);
  if (params.sniaRoundSec !== undefined) return buildSniaCommand(params, runDir, params.sniaRoundSec);
  const args = [
    `--name=probebook-${params.rw}`,
    `--rw=${params.rw}`,
    ...(params.rw === "randrw" && params.rwmixread !== undefined ? [`--rwmixread=${params.rwmixread}`] : []),
    `--bs=${params.blockSizeKiB}k`,
    ...fileArgs(params, runDir),
    `--numjobs=${params.numjobs}`,
  ];
  if (params.numjobs > 1) args.push("--group_reporting");
  if (params.numaCpuNodes !== undefined) args.push(`--numa_cpu_nodes=${params.numaCpuNodes}`);
  if (params.runtimeSec !== undefined) args.push(`--runtime=${params.runtimeSec}`, "--time_based");
  args.push(...steadyStateArgs(params.steadyState));
  if (params.loops !== undefined && params.loops > 1) args.push(`--loops=${params.loops}`);
  if (params.overwrite !== undefined) args.push(`--overwrite=${params.overwrite ? 1 : 0}`);
  if (params.invalidate !== undefined) args.push(`--invalidate=${params.invalidate ? 1 : 0}`);
  // With JSON alone fio 3.33 prints no ETA lines; with the normal report beside it and
  // --eta=always it prints one a second on the pty ("[62.5%][r=25.1MiB/s][…][eta 00m:03s]",
  // \r-separated), then the JSON, then the text report. See ARCHITECTURE.md, Decisions.
  args.push("--output-format=normal,json", "--eta=always", `--percentile_list=${FIO_PERCENTILES.join(":")}`);
  // One averaged sample a second per job and direction, written into the run directory (cwd)
  // when the job ends; the agent appends them to the output (collect) for the parser.
  for (const log of ["bw", "iops", "lat"]) args.push(`--write_${log}_log=${FIO_LOG_PREFIX}`);
  args.push("--log_avg_msec=1000");
  return {
    file: "fio",
    args,
    env: { LC_ALL: "C" },
    cwd: runDir,
    timeoutSec: fioTimeoutSec(params),
    files: [inTarget(runDir, FIO_FILE)],
    collect: FIO_COLLECT,
  };
}

export function fioRequiredFreeBytes(params: FioParams): number {
  if (params.jobFile !== undefined) {
    const verdict = validateJobFile(params.jobFile);
    return verdict.ok ? verdict.summary.writesBytes : 0;
  }
  return params.sizeMiB * 1024 * 1024;
}
