import { guardProgress, makeProgress } from "../core/progress";
import type { Progress } from "../core/types";
import type { FioParams } from "./params";
import { SNIA_MAX_ROUNDS } from "./snia/rule";

// fio's ETA line, printed once a second with --eta=always beside the normal report:
// "Jobs: 1 (f=1): [m(1)][66.7%][r=11.3MiB/s,w=4928KiB/s][r=2897,w=1232 IOPS][eta 00m:02s]".
// The rate and IOPS brackets are absent while fio has no figures yet.
const ETA_RE = /Jobs:\s*\d+[^\r\n]*?\]\[(\d+(?:\.\d+)?)%\](?:\[(?!eta )([^\]\r\n]*?)\])?(?:\[[^\]\r\n]*?IOPS\])?(?:\[eta ([^\]\r\n]*)\])?/g;

/** What progress needs from fio's output so far; scanFio adds a piece of it (live-progress.ts). */
export interface FioScan {
  /** The JSON report has started: the run is finished. */
  report: boolean;
  lastEta: RegExpExecArray | null;
  layingOut: boolean;
  starting: boolean;
  /** The step of a stepped run (1: the SNIA precondition, N + 1: round N); absent otherwise. */
  step?: number;
}

export const emptyFioScan = (): FioScan => ({ report: false, lastEta: null, layingOut: false, starting: false });

/** Folds a piece of output (whole lines, or the whole log) into the scan. */
export function scanFio(s: FioScan, text: string): FioScan {
  // A stepped run (SNIA rounds): each step is its own fio; only the current one's lines count.
  const step = lastStep(text);
  if (step) return { ...scanStep(emptyFioScan(), text.slice(step.at)), step: step.n };
  return scanStep(s, text);
}

function lastStep(text: string): { n: number; at: number } | null {
  let found: { n: number; at: number } | null = null;
  for (const m of text.matchAll(/\[probebook step (\d{1,4})\]/g)) found = { n: Number(m[1]), at: m.index + m[0].length };
  return found;
}

function scanStep(s: FioScan, text: string): FioScan {
  let last = s.lastEta;
  for (const m of text.matchAll(ETA_RE)) last = m;
  return {
    report: s.report || text.includes('"fio version"'),
    lastEta: last,
    layingOut: s.layingOut || /Laying out IO file/.test(text),
    starting: s.starting || /^Starting \d+ (process|thread)/m.test(text),
    ...(s.step !== undefined ? { step: s.step } : {}),
  };
}

/**
 * Progress from fio's ETA lines: its own percentage (of the runtime for time-based runs, of the
 * bytes otherwise), the current rate and the time left. Before the first one fio lays out its
 * file and starts; once the JSON report has arrived the run is finished.
 */
export function fioProgressOf(s: FioScan): Progress | null {
  const p = stepProgress(s);
  if (!p || s.step === undefined) return p;
  const what = s.step === 1 ? "precondition" : `round ${s.step - 1} of at most ${SNIA_MAX_ROUNDS}`;
  // The bar counts the whole run, the precondition and every round it may take, so it never goes
  // back when a step ends and the next begins at 0 %; the run may end sooner, when steady.
  return makeProgress(s.step - 1 + p.fraction, SNIA_MAX_ROUNDS + 1, "steps", `${what}: ${p.label}`);
}

function stepProgress(s: FioScan): Progress | null {
  if (s.report) return makeProgress(100, 100, "%", "finished, writing the report");
  const last = s.lastEta;
  if (!last) {
    if (s.layingOut) return makeProgress(0, 100, "%", "laying out the file");
    if (s.starting) return makeProgress(0, 100, "%", "starting");
    return null;
  }
  const percent = Math.min(100, Number(last[1]));
  if (!Number.isFinite(percent)) return null;
  const rate = last[2] ? `, ${last[2]}` : "";
  const eta = last[3] ? `, ETA ${last[3]}` : "";
  return makeProgress(percent, 100, "%", `${percent.toFixed(1)} %${rate}${eta}`);
}

export const extractFioProgress = guardProgress((output: string, _params: FioParams): Progress | null => fioProgressOf(scanFio(emptyFioScan(), output)));
