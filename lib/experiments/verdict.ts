// The answer an experiment gives: per headline metric, each arm against the baseline arm as a
// ratio with its confidence interval, and one plain sentence a person can repeat. Only valid
// runs reach this file (summarise.ts drops flagged and warm-up runs), and below MIN_VALID_RUNS
// per arm there is no ratio at all: with one or two runs the "interval" is just the range of
// a couple of numbers, and a sentence with a percentage in it would be read as an answer.
import { coefficientOfVariation, median, ratioInterval } from "./ratio-interval";
import { halfWidthPct, runsNeeded } from "./precision";

/** Fewer valid runs per arm than this and a line only says it is still collecting. */
export const MIN_VALID_RUNS = 3;

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

/**
 * collecting: not yet MIN_VALID_RUNS valid runs in both arms, so no ratio.
 * decided: the interval excludes "no change".
 * no-difference-detected: the interval includes it (runsNeeded says whether more runs would help).
 */
export type VerdictState = "collecting" | "decided" | "no-difference-detected";

export interface VerdictLine {
  metric: string;
  dims: Record<string, string>;
  baseline: string;
  arm: string;
  state: VerdictState;
  baselineMedian: number | null;
  armMedian: number | null;
  ratio: number | null;
  ciLow: number | null;
  ciHigh: number | null;
  confidence: number | null;
  /** max(high / ratio − 1, 1 − low / ratio) in %: how far the interval reaches from the estimate. */
  halfWidthPct: number | null;
  /** More valid runs per arm that would likely decide; null when decided, collecting or hopeless. */
  runsNeeded: number | null;
  /** Valid runs per arm behind the line. */
  runs: { baseline: number; arm: number };
  /** Null when the interval includes no change (or there is none yet). */
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

/** The words of a line that has not reached MIN_VALID_RUNS in both arms: a state, no numbers about the effect. */
export function collectingText(validPerArm: number, min = MIN_VALID_RUNS) {
  return `collecting: ${Math.min(validPerArm, min)} of ${min} valid runs per arm`;
}

export function verdictLine(h: HeadlineMetric, baseline: ArmValues, arm: ArmValues): VerdictLine | null {
  const base = {
    metric: h.metric,
    dims: h.dims,
    baseline: baseline.label,
    arm: arm.label,
    runs: { baseline: baseline.values.length, arm: arm.values.length },
  };
  const fewest = Math.min(baseline.values.length, arm.values.length);
  if (fewest < MIN_VALID_RUNS) {
    return { ...base, state: "collecting", baselineMedian: null, armMedian: null, ratio: null, ciLow: null, ciHigh: null, confidence: null, halfWidthPct: null, runsNeeded: null, better: null, sentence: collectingText(fewest) };
  }
  const ri = ratioInterval(baseline.values, arm.values);
  if (!ri) return null;
  const conf = `${Math.round(ri.confidence * 100)} % CI`;
  const runs = runsText(baseline.values.length, arm.values.length);
  const undetectable = ri.low <= 1 && ri.high >= 1;
  const higher = ri.ratio > 1;
  const better = undetectable ? null : higher === (h.betterWhen === "higher");
  const width = halfWidthPct(ri);
  const needed = runsNeeded(ri, baseline.values.length, arm.values.length);
  let sentence: string;
  if (undetectable) {
    const ci = `${conf} ${signed(ri.low)} to ${signed(ri.high)} %, ${runs}`;
    const reach = Math.max(ri.high - 1, 1 - ri.low);
    if (needed.kind === "same") {
      sentence = `No difference in ${h.noun} between ${arm.label} and ${baseline.label} larger than ±${pct(1 + reach)} % at this precision (${ci}).`;
    } else if (needed.kind === "too-noisy") {
      sentence = `No difference in ${h.noun} between ${arm.label} and ${baseline.label} detected (${ci}): the runs vary too much on this host to tell whether the ${signed(ri.ratio)} % is real; that would take more than ${needed.limit} runs per arm.`;
    } else {
      sentence = `No difference in ${h.noun} between ${arm.label} and ${baseline.label} detected yet (${ci}): the estimate is ${signed(ri.ratio)} %; about ${needed.more} more runs per arm would likely tell whether it is real.`;
    }
  } else if (h.verb) {
    sentence = `${arm.label} ${h.verb} ${pct(ri.ratio)} % ${higher ? "faster" : "slower"} than ${baseline.label} (${conf} ${pct(higher ? ri.low : ri.high)}–${pct(higher ? ri.high : ri.low)} %, ${runs}).`;
  } else {
    sentence = `${arm.label} had ${pct(ri.ratio)} % ${higher ? "higher" : "lower"} ${h.noun} than ${baseline.label} (${conf} ${pct(higher ? ri.low : ri.high)}–${pct(higher ? ri.high : ri.low)} %, ${runs}).`;
  }
  return {
    ...base,
    state: undetectable ? "no-difference-detected" : "decided",
    baselineMedian: median(baseline.values),
    armMedian: median(arm.values),
    ratio: ri.ratio,
    ciLow: ri.low,
    ciHigh: ri.high,
    confidence: ri.confidence,
    halfWidthPct: width,
    runsNeeded: undetectable && needed.kind === "more" ? needed.more : null,
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
