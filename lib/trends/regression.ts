// Is this host getting slower? The last N valid runs of a series against the N before, compared
// the way an experiment compares arms (ratioInterval: Hodges–Lehmann ratio, exact interval). A
// change is called when the estimate lies beyond the series' threshold t AND the whole interval
// lies beyond t / 2: large enough to matter, and surely more than noise. Pure.
// Why these choices (figures: 2,000 simulated series each, CV 3 %, N 5, t 5 %; see
// bench/trend-calibration.ts and bench/README.md):
// - The HL estimate is the median of the N² pairwise log-ratios, so one wild run moves N of them
//   and the estimate barely moves: a single outlier cannot alert on its own (it can tip a steady
//   series already at the line: 1 % of them in the unit test).
// - The interval bounds false alerts by its own coverage: on a steady host the ratio is 1, and
//   the interval misses it on one side with probability at most (1 − confidence) / 2, whatever
//   the noise; asking it to clear t / 2 makes that far rarer (0.07 % of evaluations).
// - Not "the whole interval beyond t": with 5 runs per window the interval reaches about ±5 %
//   at CV 3 %, so a sustained 10 % drop was caught within N runs only 59 % of the time (92 %
//   with t / 2), and once both windows are past the step it never is. Not "the interval
//   excludes 1" alone either: then 8 % of steady series raised a false alert within 30 runs
//   (1.4 % with t / 2), and one wild run added an alert to 6 % of them (1 % with t / 2).
//   Leaving each run out in turn was tried too: at t / 4 it matched t / 2's figures and cost
//   more, so the plain rule.
import { ratioInterval, type RatioInterval } from "../experiments/ratio-interval";
import { windowChanges, type ProfileChange, type ProfileFields } from "./profile-changes";

export const TREND_LEVEL = 0.95;

export type TrendState = "collecting" | "regression" | "improvement" | "steady";

export interface TrendRun {
  id: string;
  /** The followed headline figure, positive, in its display unit. */
  value: number;
  fields?: ProfileFields;
}

export interface TrendInput {
  /** The series' valid runs, oldest first. */
  runs: readonly TrendRun[];
  windowRuns: number;
  thresholdPct: number;
  betterWhen: "higher" | "lower";
  noun: string;
}

export interface TrendEvaluation {
  state: TrendState;
  baselineRunIds: string[];
  recentRunIds: string[];
  interval: RatioInterval | null;
  changes: ProfileChange[];
  /** The alert's sentence for a regression or improvement, else null. */
  message: string | null;
}

/** The two windows: the last n runs and the n before them (empty until there are 2n). */
export function trendWindows<T>(runs: readonly T[], n: number): { baseline: T[]; recent: T[] } | null {
  if (n < 1 || runs.length < 2 * n) return null;
  return { baseline: runs.slice(runs.length - 2 * n, runs.length - n), recent: runs.slice(runs.length - n) };
}

/** A change beyond the threshold t (in %) whose interval clears t / 2, and its direction. */
export function classify(interval: Pick<RatioInterval, "ratio" | "low" | "high">, thresholdPct: number, betterWhen: "higher" | "lower"): "regression" | "improvement" | "steady" {
  const t = thresholdPct / 100;
  const below = interval.ratio < 1 - t && interval.high < 1 - t / 2;
  const above = interval.ratio > 1 + t && interval.low > 1 + t / 2;
  if (!below && !above) return "steady";
  return below === (betterWhen === "higher") ? "regression" : "improvement";
}

/** (r − 1) in %, signed with a real minus: −18 %, +4.5 %. Whole from 10 %, else one decimal. */
export function signedPct(r: number): string {
  const p = (r - 1) * 100;
  const mag = Math.abs(p);
  const text = mag >= 9.95 ? mag.toFixed(0) : mag.toFixed(1);
  return `${p < 0 ? "−" : "+"}${text}`;
}

function changeText(c: ProfileChange): string {
  return `${c.label} ${c.from ?? "unknown"} → ${c.to ?? "unknown"}`;
}

/** "a", "a and b", "a, b and c". */
function listText(items: string[]): string {
  if (items.length <= 1) return items.join("");
  return `${items.slice(0, -1).join(", ")} and ${items[items.length - 1]}`;
}

/**
 * "write throughput −18 % (CI −24 to −11 %) since kernel 6.1.0-25-amd64 → 6.1.0-28-amd64 and
 * `vm.dirty_ratio` 20 → 10", or "…; no change in the host profile was seen between the two
 * windows". The confidence is named when it is below the 95 % asked for (small windows).
 */
export function trendMessage(noun: string, interval: RatioInterval, changes: readonly ProfileChange[]): string {
  const conf = interval.confidence < TREND_LEVEL - 1e-9 ? `${Math.floor(interval.confidence * 100)} % CI` : "CI";
  const head = `${noun} ${signedPct(interval.ratio)} % (${conf} ${signedPct(interval.low)} to ${signedPct(interval.high)} %)`;
  return changes.length > 0 ? `${head} since ${listText(changes.map(changeText))}` : `${head}; no change in the host profile was seen between the two windows`;
}

export function evaluateTrend(input: TrendInput): TrendEvaluation {
  const w = trendWindows(input.runs, input.windowRuns);
  if (!w) return { state: "collecting", baselineRunIds: [], recentRunIds: [], interval: null, changes: [], message: null };
  const baselineRunIds = w.baseline.map((r) => r.id);
  const recentRunIds = w.recent.map((r) => r.id);
  const interval = ratioInterval(
    w.baseline.map((r) => r.value),
    w.recent.map((r) => r.value),
    TREND_LEVEL,
  );
  const changes = windowChanges(
    w.baseline.map((r) => r.fields ?? {}),
    w.recent.map((r) => r.fields ?? {}),
  );
  if (!interval) return { state: "collecting", baselineRunIds, recentRunIds, interval: null, changes, message: null };
  const state = classify(interval, input.thresholdPct, input.betterWhen);
  return { state, baselineRunIds, recentRunIds, interval, changes, message: state === "steady" ? null : trendMessage(input.noun, interval, changes) };
}

/**
 * One alert per step: while an existing alert of the same kind still has a run in either of the
 * current windows, the same step is still being seen and a new alert would only repeat it.
 */
export function isRepeatAlert(
  existing: readonly { kind: "regression" | "improvement"; recentRunIds: readonly string[] }[],
  kind: "regression" | "improvement",
  windows: { baselineRunIds: readonly string[]; recentRunIds: readonly string[] },
): boolean {
  const current = new Set([...windows.baselineRunIds, ...windows.recentRunIds]);
  return existing.some((a) => a.kind === kind && a.recentRunIds.some((id) => current.has(id)));
}
