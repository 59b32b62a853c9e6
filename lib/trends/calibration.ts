// Simulated series for the regression rule's calibration (the unit tests and
// bench/trend-calibration.ts): log-normal runs around a level with a given CV, seeded, evaluated
// after every run the way evaluate-series.ts does it.
import { seededRandom } from "../seeded-random";
import { evaluateTrend, isRepeatAlert, type TrendRun } from "./regression";

/** A standard normal draw from two uniforms (Box–Muller). */
export function normal(rand: () => number): number {
  const u = Math.max(rand(), 1e-12);
  return Math.sqrt(-2 * Math.log(u)) * Math.cos(2 * Math.PI * rand());
}

/** n runs around `level` with coefficient of variation `cv`, times `factor(i)` (a step, an outlier). */
export function simulateSeries(opts: { n: number; cv: number; seed: number; level?: number; factor?: (i: number) => number }): TrendRun[] {
  const rand = seededRandom(opts.seed);
  const sigma = Math.sqrt(Math.log(1 + opts.cv ** 2));
  return Array.from({ length: opts.n }, (_, i) => ({
    id: `r${i}`,
    value: (opts.level ?? 500) * Math.exp(sigma * normal(rand) - sigma ** 2 / 2) * (opts.factor?.(i) ?? 1),
  }));
}

export interface Replay {
  /** Evaluations that had two full windows. */
  evaluations: number;
  /** Evaluations whose state was regression or improvement (before de-duplication). */
  calls: number;
  /** Alerts after de-duplication, with the index of the run that raised each. */
  alerts: { kind: "regression" | "improvement"; at: number; message: string }[];
}

/** The series evaluated after each of its runs, as the server does. */
export function replaySeries(runs: readonly TrendRun[], opts: { windowRuns: number; thresholdPct: number; betterWhen?: "higher" | "lower"; noun?: string }): Replay {
  const out: Replay = { evaluations: 0, calls: 0, alerts: [] };
  const raised: { kind: "regression" | "improvement"; recentRunIds: string[] }[] = [];
  for (let i = 1; i <= runs.length; i++) {
    const e = evaluateTrend({ runs: runs.slice(0, i), windowRuns: opts.windowRuns, thresholdPct: opts.thresholdPct, betterWhen: opts.betterWhen ?? "higher", noun: opts.noun ?? "write throughput" });
    if (e.state === "collecting") continue;
    out.evaluations++;
    if (e.state === "steady") continue;
    out.calls++;
    if (isRepeatAlert(raised, e.state, e)) continue;
    raised.push({ kind: e.state, recentRunIds: e.recentRunIds });
    out.alerts.push({ kind: e.state, at: i - 1, message: e.message ?? "" });
  }
  return out;
}

export interface SteadyRate {
  series: number;
  evaluations: number;
  calls: number;
  alerts: number;
  /** calls / evaluations. */
  ratePerEvaluation: number;
  /** Series with at least one alert / series. */
  ratePerSeries: number;
}

/** A/A: steady series (no change at all), the share of evaluations that call a change. */
export function steadyFalseAlertRate(opts: { series: number; runsPerSeries: number; cv: number; windowRuns: number; thresholdPct: number; seed: number }): SteadyRate {
  let evaluations = 0;
  let calls = 0;
  let alerts = 0;
  let seriesWithAlert = 0;
  for (let s = 0; s < opts.series; s++) {
    const r = replaySeries(simulateSeries({ n: opts.runsPerSeries, cv: opts.cv, seed: opts.seed * 100_003 + s }), opts);
    evaluations += r.evaluations;
    calls += r.calls;
    alerts += r.alerts.length;
    if (r.alerts.length > 0) seriesWithAlert++;
  }
  return { series: opts.series, evaluations, calls, alerts, ratePerEvaluation: evaluations ? calls / evaluations : 0, ratePerSeries: opts.series ? seriesWithAlert / opts.series : 0 };
}
