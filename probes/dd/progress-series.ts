// dd's throughput over the run, from its status=progress redraws: each redraw says how many
// bytes were copied after how many seconds, so the rate between two redraws is what dd did in
// that second (dd's own figure is the average since the start). Without redraws (a run shorter
// than dd's first one) the summary gives one point.
import { displayUnit } from "../core/metrics";
import type { NormalisedResult } from "../core/types";
import type { ProgressSeries } from "../core/view";
import { findSummary, segments, transfersIn, type Segment } from "./summary";

export function ddProgress(_result: NormalisedResult | null, log: string): ProgressSeries[] {
  return ddProgressOf(segments(log));
}

/**
 * The series from the output's segments; only those with a transfer or a records line matter,
 * so the live tracker (live-progress.ts) passes just those.
 */
export function ddProgressOf(segs: readonly Segment[]): ProgressSeries[] {
  const transfers = segs.flatMap((s) => transfersIn(s.text));
  const summary = findSummary(segs);
  const points: { t: number; v: number }[] = [];
  const mib = displayUnit("B/s").scale;
  let prev = { bytes: 0, seconds: 0 };
  for (const tr of summary ? [...transfers.filter((x) => x !== summary && x.seconds < summary.seconds), summary] : transfers) {
    // The summary follows the last redraw by milliseconds: too short an interval to be a rate.
    if (tr.seconds <= prev.seconds || (points.length > 0 && tr.seconds - prev.seconds < 0.25) || tr.bytes < prev.bytes) continue;
    points.push({ t: Math.round(tr.seconds * 100) / 100, v: ((tr.bytes - prev.bytes) / (tr.seconds - prev.seconds)) * mib });
    prev = tr;
  }
  return points.length ? [{ key: "dd.throughput", label: "dd throughput", unit: displayUnit("B/s").unit, points }] : [];
}
