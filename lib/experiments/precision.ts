// How precise a ratio is, and how many more runs would make it precise enough to decide.
// Both read only the interval's width and the run counts; what the stop rule does with the
// width never depends on where the interval lies (see schedule.ts).
import type { RatioInterval } from "./ratio-interval";

/** Beyond this many runs per arm an experiment is not a practical way to tell. */
export const RUNS_NEEDED_LIMIT = 50;
/** An estimate this close to "no change" is reported as no difference, not as "run more". */
export const SAME_WITHIN = 0.01;

/**
 * The interval's reach from the estimate in % of the ratio: max(high / ratio − 1, 1 − low / ratio).
 * A ratio of 1.20 with interval 1.14–1.26 is ±5 %. Scale-free, so it means the same for a 2× and
 * a 1.01× effect, and it says nothing about whether the interval includes 1.
 */
export function halfWidthPct(ri: Pick<RatioInterval, "ratio" | "low" | "high">): number {
  return Math.max(ri.high / ri.ratio - 1, 1 - ri.low / ri.ratio) * 100;
}

export type RunsNeeded = { kind: "same" } | { kind: "too-noisy"; limit: number } | { kind: "more"; more: number; total: number };

/**
 * For an interval that includes 1: how many valid runs per arm would likely make it exclude 1,
 * if the effect is what it looks like now. The interval's log-width shrinks about as
 * sqrt(1/m + 1/n) (the standard error of a difference of two means, which the Hodges–Lehmann
 * shift follows for larger samples), so with equal arms of n runs it is ∝ 1/sqrt(n): the runs
 * needed are those at which the log half-width falls below |ln ratio|. It ignores that the
 * interval's level rises from 90 % at 3 runs to 95 % later, hence "about" and "likely".
 */
export function runsNeeded(ri: Pick<RatioInterval, "ratio" | "low" | "high">, nBaseline: number, nArm: number): RunsNeeded {
  if (Math.abs(ri.ratio - 1) < SAME_WITHIN) return { kind: "same" };
  const logHalf = Math.max(Math.log(ri.high / ri.ratio), Math.log(ri.ratio / ri.low));
  const effect = Math.abs(Math.log(ri.ratio));
  // Harmonic mean of the two sizes: equal arms of this size have the same sqrt(1/m + 1/n).
  const nNow = 2 / (1 / nBaseline + 1 / nArm);
  const total = Math.max(Math.ceil(nNow * (logHalf / effect) ** 2), Math.min(nBaseline, nArm) + 1);
  if (total > RUNS_NEEDED_LIMIT) return { kind: "too-noisy", limit: RUNS_NEEDED_LIMIT };
  return { kind: "more", more: total - Math.min(nBaseline, nArm), total };
}
