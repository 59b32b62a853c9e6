// The SNIA-style steady-state run as a stepped command (CommandSpec.next): step 1 preconditions
// the file with sequential writes of twice its size, then each step is one round of the measured
// workload, one fio process per round. The agent asks `next` after each step with that step's
// output; the steady-state rule (./rule.ts) runs there, in the agent, between rounds, so the run
// stops at the first round whose 5-round window is steady, or after 25 rounds.
import type { CommandSpec } from "../../core/types";
import { FIO_PERCENTILES, fileArgs } from "../command";
import type { FioParams } from "../params";
import { parseFio } from "../parse";
import { wantsAnotherRound } from "./rule";
import { roundIops } from "./rounds";

export const SNIA_PRECONDITION_JOB = "precondition";
export const sniaRoundJob = (rw: string) => `snia-${rw}`;

/** Sequential writes in 128 KiB blocks, the common precondition block size. */
const PRECONDITION_BS_KIB = 128;

function common(params: FioParams, runDir: string): string[] {
  return [
    ...fileArgs(params, runDir),
    // With JSON alone fio prints no ETA lines; see command.ts.
    "--output-format=normal,json",
    "--eta=always",
  ];
}

/** Step 1: write the whole file sequentially twice (fio's loops=2), so each round meets a used, full file. */
export function preconditionArgs(params: FioParams, runDir: string): string[] {
  return [`--name=${SNIA_PRECONDITION_JOB}`, "--rw=write", `--bs=${PRECONDITION_BS_KIB}k`, "--loops=2", ...common(params, runDir)];
}

/** One round: the workload for `sniaRoundSec` seconds, time based, over the preconditioned file. */
export function roundArgs(params: FioParams, runDir: string, roundSec: number): string[] {
  const args = [
    `--name=${sniaRoundJob(params.rw)}`,
    `--rw=${params.rw}`,
    ...(params.rw === "randrw" && params.rwmixread !== undefined ? [`--rwmixread=${params.rwmixread}`] : []),
    `--bs=${params.blockSizeKiB}k`,
    ...common(params, runDir),
    `--numjobs=${params.numjobs}`,
    ...(params.numjobs > 1 ? ["--group_reporting"] : []),
    `--runtime=${roundSec}`,
    "--time_based",
    `--percentile_list=${FIO_PERCENTILES.join(":")}`,
  ];
  return args;
}

/** 5 MiB/s worst case for the two passes, plus two minutes of slack; a round gets two minutes beyond its length. */
const preconditionTimeoutSec = (params: FioParams) => 120 + Math.ceil((2 * params.sizeMiB) / 5);
const roundTimeoutSec = (roundSec: number) => 120 + roundSec;

export function buildSniaCommand(params: FioParams, runDir: string, roundSec: number): CommandSpec {
  const rounds: number[] = [];
  const base = { file: "fio", env: { LC_ALL: "C" }, cwd: runDir } as const;
  const round = (): CommandSpec => ({ ...base, args: roundArgs(params, runDir, roundSec), timeoutSec: roundTimeoutSec(roundSec), next });
  // Step 1 is the precondition; step k + 1 is round k. A round whose report cannot be read ends
  // the run (its output is kept and the parser says why).
  function next(stepOutput: string, step: number): CommandSpec | null {
    if (step === 1) return round();
    const parsed = parseFio(stepOutput);
    const iops = parsed.ok ? roundIops(parsed.result.measurements) : null;
    if (iops === null) return null;
    rounds.push(iops);
    return wantsAnotherRound(rounds) ? round() : null;
  }
  return {
    ...base,
    args: preconditionArgs(params, runDir),
    timeoutSec: preconditionTimeoutSec(params),
    // No `files`: the runner deletes those after each process, and the rounds need the file.
    // The agent removes the whole run directory when the run ends.
    next,
  };
}
