import { guardProgress, makeProgress } from "../core/progress";
import type { Progress } from "../core/types";
import { PHASES } from "./command";
import type { FsmetaParams } from "./params";

// fio's ETA line: "Jobs: 10 (f=0): [_(1),R(10),P(21)][10.3%][r=55.2MiB/s][r=14.1k IOPS][eta …]".
// The first bracket holds one state letter per job in job order, run-length encoded as "X(n)";
// "_" is a job that has exited. The percentage is fio's estimate for the running step (the steps
// are stonewalled groups), so steps done + that fraction is the progress.
const ETA_RE = /Jobs:\s*\d+\s*\(f=\d+\):\s*\[([^\]\r\n]*)\]\[(\d+(?:\.\d+)?)%\](?:\[[^\]\r\n]*\])?(?:\[r=([^\]\r\n]*?)\s*IOPS\])?(?:\[eta ([^\]\r\n]*)\])?/g;

/**
 * fio cannot size a file-creating step ahead: it prints 0.0 % and an ETA of tens of thousands
 * of days ("eta 74565d:09h:42m:21s", an unsigned wrap). Such a line says which step runs, not
 * how far into it.
 */
export function bogusEta(eta: string | undefined): boolean {
  const days = eta ? /^(\d+)d/.exec(eta.trim()) : null;
  return days !== null && Number(days[1]) >= 365;
}

/** "_(1),R(3),P(7)" → ["_", "R", "R", "R", "P", …]; fio also writes single letters without a count. */
function expandStates(text: string): string[] {
  const out: string[] = [];
  for (const m of text.matchAll(/([^,(]+?)(?:\((\d+)\))?(?:,|$)/g)) {
    const state = (m[1] ?? "").trim();
    const count = Math.min(Number(m[2] ?? 1), 10_000);
    if (state) for (let i = 0; i < count; i++) out.push(state);
  }
  return out;
}

/** What progress needs from the output so far; scanFsmeta adds a piece of it (live-progress.ts). */
export interface FsmetaScan {
  report: boolean;
  lastEta: RegExpExecArray | null;
}

export const emptyFsmetaScan = (): FsmetaScan => ({ report: false, lastEta: null });

/** Folds a piece of output (whole lines, or the whole log) into the scan. */
export function scanFsmeta(s: FsmetaScan, text: string): FsmetaScan {
  let last = s.lastEta;
  for (const m of text.matchAll(ETA_RE)) last = m;
  return { report: s.report || text.includes('"fio version"'), lastEta: last };
}

/**
 * Progress in steps (create, stat, delete). A step is done when all its workers (one per
 * directory) have exited; the tree layout's mkdir job before them and rmdir job after them do
 * not count. The layout is read from the ETA line itself, so a log read with other parameters
 * still counts right.
 */
export function fsmetaProgressOf(s: FsmetaScan, params: FsmetaParams): Progress | null {
  const steps = PHASES.length;
  // Fast steps finish between two ETA lines (fio prints one a second): the report means done.
  if (s.report) return makeProgress(steps, steps, "steps", "finished");
  const last = s.lastEta;
  if (!last) return makeProgress(0, steps, "steps", `starting: ${params.files.toLocaleString("en")} files`);
  // The job list tells the layout: 3 jobs (flat) or 3 × dirs + mkdir + rmdir (tree).
  const states = expandStates(last[1] ?? "");
  const tree = states.length % steps === 2;
  const perStep = Math.max(1, tree ? (states.length - 2) / steps : states.length / steps);
  const jobs = states.slice(tree ? 1 : 0, (tree ? 1 : 0) + steps * perStep);
  const exited = jobs.filter((x) => x === "_").length;
  const stepsDone = Math.min(Math.floor(exited / perStep), steps);
  if (stepsDone >= steps) return makeProgress(steps, steps, "steps", "cleaning up");
  const step = PHASES[stepsDone] ?? "create";
  const rate = last[3] ? `, ${last[3]} files/s` : "";
  if (bogusEta(last[4])) return { ...makeProgress(stepsDone, steps, "steps", `${step} (step ${stepsDone + 1} of ${steps})${rate}`), withinStepUnknown: true };
  const within = Math.min(Number(last[2] ?? 0), 99.9) / 100;
  return makeProgress(stepsDone + (Number.isFinite(within) ? within : 0), steps, "steps", `${step} (step ${stepsDone + 1} of ${steps})${rate}`);
}

export const extractFsmetaProgress = guardProgress((output: string, params: FsmetaParams): Progress | null => fsmetaProgressOf(scanFsmeta(emptyFsmetaScan(), output), params));
