import { inTarget } from "../core/schemas";
import type { CommandSpec } from "../core/types";
import type { FioParams } from "./params";

export const FIO_FILE = "probebook-fio.tmp";

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
  const layoutSec = params.rw === "read" || params.rw === "randread" || params.runtimeSec !== undefined ? passSec : 0;
  return 120 + layoutSec + (params.runtimeSec ?? passSec);
}

/** fio writes its file into the run's private directory `runDir` (made by the agent inside the target). */
export function buildFioCommand(params: FioParams, runDir: string): CommandSpec {
  const args = [
    `--name=probebook-${params.rw}`,
    `--rw=${params.rw}`,
    `--bs=${params.blockSizeKiB}k`,
    `--size=${params.sizeMiB}m`,
    `--direct=${params.direct ? 1 : 0}`,
    `--directory=${fioDirectoryArg(runDir)}`,
    `--filename=${FIO_FILE}`,
    `--ioengine=${params.ioengine}`,
    `--iodepth=${params.iodepth}`,
    `--numjobs=${params.numjobs}`,
  ];
  if (params.numjobs > 1) args.push("--group_reporting");
  if (params.runtimeSec !== undefined) args.push(`--runtime=${params.runtimeSec}`, "--time_based");
  // With JSON on stdout fio 3.33 prints no ETA lines (checked), so live progress is not reported.
  args.push("--output-format=json");
  return {
    file: "fio",
    args,
    env: { LC_ALL: "C" },
    cwd: runDir,
    timeoutSec: fioTimeoutSec(params),
    files: [inTarget(runDir, FIO_FILE)],
  };
}

export function fioRequiredFreeBytes(params: FioParams): number {
  return params.sizeMiB * 1024 * 1024;
}
