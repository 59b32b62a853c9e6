// fio's per-second figures (from its bandwidth, IOPS and latency logs) over the run's elapsed
// time: as the probe's progress series for the timeline and as line charts of the run.
import { readSteadyState, steadyStateText } from "./steady-state-read";
import { splitCollectedFiles } from "../core/collected-files";
import { displayUnit } from "../core/metrics";
import type { Measurement, NormalisedResult } from "../core/types";
import type { ProgressSeries, RunChart } from "../core/view";
import { logSeries } from "./parse-logs";

const KINDS = [
  { metric: "bw_series", key: "bw", what: "bandwidth", ...displayUnit("B/s") },
  { metric: "iops_series", key: "iops", what: "IOPS", unit: "IOPS", scale: 1 },
  { metric: "clat_mean_series", key: "clat", what: "mean completion latency", ...displayUnit("ns") },
] as const;

function fromMeasurements(ms: readonly Measurement[]): ProgressSeries[] {
  const out: ProgressSeries[] = [];
  for (const kind of KINDS) {
    const bySide = new Map<string, ProgressSeries>();
    for (const m of ms) {
      if (m.metric !== kind.metric || typeof m.dims.t !== "number") continue;
      const dir = String(m.dims.direction ?? "");
      const key = `fio.${kind.key}.${dir}`;
      const s = bySide.get(key) ?? { key, label: `${dir} ${kind.what}`, unit: kind.unit, points: [] };
      bySide.set(key, s);
      s.points.push({ t: m.dims.t, v: m.value * kind.scale });
    }
    for (const s of bySide.values()) {
      // A direction fio logged but never used (all zeros) has nothing to show.
      if (s.points.some((p) => p.v > 0)) out.push({ ...s, points: s.points.sort((a, b) => a.t - b.t) });
    }
  }
  return out;
}

/**
 * The stored result's series; without a result (a run still going, or one whose report did not
 * parse) the logs appended to the raw output, when they are there.
 */
export function fioProgress(result: NormalisedResult | null, log: string): ProgressSeries[] {
  if (result) return fromMeasurements(result.measurements);
  const { files } = splitCollectedFiles(log);
  return files.length > 0 ? fromMeasurements(logSeries(files, "job")) : [];
}

/** About eight round ticks over 0…end seconds. */
function timeTicks(end: number): { value: number; label: string }[] {
  const step = [1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 1800, 3600].find((s) => end / s <= 8) ?? Math.ceil(end / 8 / 3600) * 3600;
  const ticks: { value: number; label: string }[] = [];
  for (let v = 0; v <= end + 1e-9; v += step) ticks.push({ value: v, label: `${v} s` });
  return ticks;
}

/** One line chart per kind (bandwidth, IOPS, latency), a line per direction. */
export function seriesCharts(result: NormalisedResult): RunChart[] {
  const series = fromMeasurements(result.measurements);
  // A run with fio's steadystate says on its curves whether, and when, fio found it steady.
  const steady = readSteadyState(result.measurements);
  const charts: RunChart[] = [];
  for (const kind of KINDS) {
    const mine = series.filter((s) => s.key.startsWith(`fio.${kind.key}.`));
    if (mine.length === 0) continue;
    const end = Math.max(...mine.flatMap((s) => s.points.map((p) => p.t)));
    charts.push({
      title: `fio ${kind.what} over time${steady ? ` (${steadyStateText(steady)})` : ""}`,
      kind: "line",
      xLabel: "seconds since fio started",
      yLabel: kind.unit,
      xTicks: timeTicks(end),
      // Named by direction: the chart's title says what is drawn.
      series: mine.map((s) => ({ name: s.key.split(".")[2]!, points: s.points.map((p) => ({ x: p.t, y: p.v, label: `${p.t} s` })) })),
    });
  }
  return charts;
}
