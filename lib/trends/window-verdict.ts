// Two windows of a series compared the way an experiment's verdict compares two arms
// (lib/experiments/verdict.ts: the same statistics, states and sentence), plus what changed on
// the host between them. Pure.
import { verdictLine } from "../experiments/verdict";
import type { HeadlineChoice, ProfileChange, WindowVerdict } from "../api/schemas/series";

export interface WindowSide {
  label: string;
  runIds: string[];
  values: number[];
}

export function windowVerdict(metric: HeadlineChoice, baseline: WindowSide, recent: WindowSide, changes: ProfileChange[]): WindowVerdict {
  // "The last 5 runs had 12 % lower write throughput than the 5 runs before (…)".
  const line = verdictLine(
    { metric: metric.key, dims: {}, noun: metric.noun, betterWhen: metric.betterWhen },
    { label: baseline.label, values: baseline.values },
    { label: recent.label, values: recent.values },
  );
  const base = { baselineRunIds: baseline.runIds, recentRunIds: recent.runIds, changes };
  if (!line) {
    return { ...base, state: "collecting", ratio: null, ciLow: null, ciHigh: null, confidence: null, halfWidthPct: null, sentence: `No ratio: a window has no positive ${metric.noun}.` };
  }
  const sentence = line.sentence.charAt(0).toUpperCase() + line.sentence.slice(1);
  return { ...base, state: line.state, ratio: line.ratio, ciLow: line.ciLow, ciHigh: line.ciHigh, confidence: line.confidence, halfWidthPct: line.halfWidthPct, sentence };
}
