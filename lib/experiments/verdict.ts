// The answer an experiment gives: per headline metric, each arm against the baseline arm as a
// ratio with its confidence interval, and one plain sentence a person can repeat.
import { coefficientOfVariation, median, ratioInterval } from "./ratio-interval";

export interface HeadlineMetric {
  metric: string;
  dims: Record<string, string>;
  /** What is measured, in words: "write throughput", "p99 completion latency". */
  noun: string;
  betterWhen: "higher" | "lower";
  /** For throughput: the verb of "xfs wrote 18 % faster than ext4". */
  verb?: string;
}

export interface ArmValues {
  label: string;
  values: number[];
}

export interface VerdictLine {
  metric: string;
  dims: Record<string, string>;
  baseline: string;
  arm: string;
  baselineMedian: number;
  armMedian: number;
  ratio: number;
  ciLow: number;
  ciHigh: number;
  confidence: number;
  runs: { baseline: number; arm: number };
  /** Null when the interval includes no change. */
  better: boolean | null;
  sentence: string;
}

const pct = (r: number) => {
  const p = Math.abs(r - 1) * 100;
  return p >= 10 ? p.toFixed(0) : p.toFixed(1);
};
const signed = (r: number) => `${r >= 1 ? "+" : "−"}${pct(r)}`;

function runsText(a: number, b: number) {
  return a === b ? `${a} runs each` : `${b} and ${a} runs`;
}

export function verdictLine(h: HeadlineMetric, baseline: ArmValues, arm: ArmValues): VerdictLine | null {
  const ri = ratioInterval(baseline.values, arm.values);
  if (!ri) return null;
  const conf = `${Math.round(ri.confidence * 100)} % CI`;
  const runs = runsText(baseline.values.length, arm.values.length);
  const undetectable = ri.low <= 1 && ri.high >= 1;
  const higher = ri.ratio > 1;
  const better = undetectable ? null : higher === (h.betterWhen === "higher");
  let sentence: string;
  if (undetectable) {
    sentence = `No difference in ${h.noun} between ${arm.label} and ${baseline.label} that this experiment can detect (${conf} ${signed(ri.low)} to ${signed(ri.high)} %, ${runs}).`;
  } else if (h.verb) {
    sentence = `${arm.label} ${h.verb} ${pct(ri.ratio)} % ${higher ? "faster" : "slower"} than ${baseline.label} (${conf} ${pct(higher ? ri.low : ri.high)}–${pct(higher ? ri.high : ri.low)} %, ${runs}).`;
  } else {
    sentence = `${arm.label} had ${pct(ri.ratio)} % ${higher ? "higher" : "lower"} ${h.noun} than ${baseline.label} (${conf} ${pct(higher ? ri.low : ri.high)}–${pct(higher ? ri.high : ri.low)} %, ${runs}).`;
  }
  return {
    metric: h.metric,
    dims: h.dims,
    baseline: baseline.label,
    arm: arm.label,
    baselineMedian: median(baseline.values),
    armMedian: median(arm.values),
    ratio: ri.ratio,
    ciLow: ri.low,
    ciHigh: ri.high,
    confidence: ri.confidence,
    runs: { baseline: baseline.values.length, arm: arm.values.length },
    better,
    sentence,
  };
}

/** Every non-baseline arm against the baseline (the first arm unless named). */
export function verdict(h: HeadlineMetric, arms: readonly ArmValues[], baselineLabel?: string): VerdictLine[] {
  const baseline = arms.find((a) => a.label === baselineLabel) ?? arms[0];
  if (!baseline) return [];
  return arms.filter((a) => a !== baseline).flatMap((a) => verdictLine(h, baseline, a) ?? []);
}

export interface ArmSpread {
  label: string;
  median: number | null;
  cv: number | null;
  runs: number;
}

export function armSpread(arm: ArmValues): ArmSpread {
  return { label: arm.label, median: arm.values.length ? median(arm.values) : null, cv: coefficientOfVariation(arm.values), runs: arm.values.length };
}
