import { inTarget, powersOfTwo } from "../core/limits";
import type { CommandSpec } from "../core/types";
import type { IozoneParams } from "./params";
import { AUTO_TABLE_TESTS, IOZONE_TESTS, THROUGHPUT_LINES, type IozoneTest } from "./tests";

export const IOZONE_FILE = "probebook-iozone.tmp";

/**
 * Files iozone writes: one in auto mode, one per process in throughput mode (-F), all in the
 * run's private directory (iozone has no O_EXCL option; the fresh 0700 directory is its equivalent).
 */
export function iozoneFiles(params: IozoneParams, runDir: string): string[] {
  if (params.mode === "auto") return [inTarget(runDir, IOZONE_FILE)];
  return Array.from({ length: params.processes }, (_, i) => inTarget(runDir, `probebook-iozone.${i}.tmp`));
}

/** The tests iozone will actually run ("all" means what -a or -t runs without -i). */
export function effectiveTests(params: IozoneParams): readonly IozoneTest[] {
  if (params.tests !== "all") return [...params.tests].sort((a, b) => a - b);
  return params.mode === "auto" ? AUTO_TABLE_TESTS : IOZONE_TESTS.filter((t) => THROUGHPUT_LINES[t] > 0);
}

/** Record sizes of the auto table: iozone stops at the file size even when -q is larger. */
export function autoRecordSizes(params: IozoneParams): number[] {
  return powersOfTwo(params.minRecordKiB, Math.min(params.maxRecordKiB, params.fileSizeMiB * 1024));
}

function sizeArg(mib: number): string {
  return mib % 1024 === 0 ? `${mib / 1024}g` : `${mib}m`;
}

// Data passes per test (write+rewrite = 2 …), for the timeout estimate only.
const PASSES: Record<IozoneTest, number> = { 0: 2, 1: 2, 2: 2, 3: 1, 4: 1, 5: 1, 6: 2, 7: 2, 8: 1, 9: 2, 10: 2, 11: 2, 12: 2 };

/**
 * Worst case assumed: 5 MiB/s averaged over the whole run (small random records on a spinning
 * disk or an SD card), plus 10 minutes of slack; capped at one week.
 */
export function iozoneTimeoutSec(params: IozoneParams): number {
  const passes = effectiveTests(params).reduce<number>((sum, t) => sum + PASSES[t], 0);
  const cells = params.mode === "auto" ? autoRecordSizes(params).length : params.processes;
  const totalMiB = params.fileSizeMiB * cells * Math.max(passes, 1);
  return Math.min(600 + Math.ceil(totalMiB / 5), 7 * 24 * 3600);
}

export function buildIozoneCommand(params: IozoneParams, runDir: string): CommandSpec {
  const args: string[] = [];
  const files = iozoneFiles(params, runDir);
  if (params.mode === "auto") {
    args.push("-a", "-s", sizeArg(params.fileSizeMiB), "-q", String(params.maxRecordKiB), "-y", String(params.minRecordKiB));
  } else {
    args.push("-t", String(params.processes), "-s", sizeArg(params.fileSizeMiB), "-r", `${params.recordKiB}k`);
  }
  if (params.tests !== "all") {
    for (const t of effectiveTests(params)) args.push("-i", String(t));
  }
  if (params.direct) args.push("-I");
  if (params.mode === "auto") args.push("-f", ...files);
  else args.push("-F", ...files);
  return {
    file: "iozone",
    args,
    env: { LC_ALL: "C" },
    cwd: runDir,
    timeoutSec: iozoneTimeoutSec(params),
    files,
  };
}

export function iozoneRequiredFreeBytes(params: IozoneParams): number {
  return (params.mode === "auto" ? 1 : params.processes) * params.fileSizeMiB * 1024 * 1024;
}
