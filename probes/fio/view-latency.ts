// fio's latency distribution as charts: the completion-latency percentile curve (every percentile
// fio reported) on a "nines" axis, and its latency histogram (the lat_share buckets).
import type { Measurement } from "../core/types";
import type { RunChart, RunChartSeries } from "../core/view";

const NS_PER_US = 1000;

/** -log10(1 - p/100): p90 → 1, p99 → 2, p99.9 → 3, so every nine gets the same width. */
export function nines(p: number): number {
  return -Math.log10(1 - Math.min(p, 99.9999) / 100);
}

/** The percentile of a "clat_p99.9" metric, or null. */
export function clatPercentile(metric: string): number | null {
  const m = /^clat_p(\d+(?:\.\d+)?)$/.exec(metric);
  return m ? Number(m[1]) : null;
}

const NINES_TICKS = [0, 50, 90, 99, 99.9, 99.99, 99.999, 99.9999];

/** Percentile curves, one line per job and direction; `isUsed` filters out sides fio reported idle. */
export function percentileCurve(ms: readonly Measurement[], isUsed: (m: Measurement) => boolean, sideName: (m: Measurement) => string): RunChart | null {
  const bySide = new Map<string, RunChartSeries>();
  let top = 0;
  for (const m of ms) {
    const p = clatPercentile(m.metric);
    if (p === null || p >= 100 || !isUsed(m)) continue;
    const name = sideName(m);
    const s = bySide.get(name) ?? { name, points: [] };
    bySide.set(name, s);
    s.points.push({ x: nines(p), y: m.value / NS_PER_US, label: `p${p}` });
    top = Math.max(top, p);
  }
  const series = [...bySide.values()].filter((s) => s.points.length >= 2);
  if (series.length === 0) return null;
  for (const s of series) s.points.sort((a, b) => Number(a.x) - Number(b.x));
  const xTicks = NINES_TICKS.filter((p) => p <= top + 1e-9).map((p) => ({ value: nines(p), label: p === 0 ? "p0" : `p${p}` }));
  // A log latency axis: the tail (p99.999) is often 100× the median, which flattens p1–p99 on a
  // linear one.
  return { title: "fio completion latency percentiles", kind: "line", xLabel: "percentile (each nine equally wide)", yLabel: "µs", xTicks, logY: true, series };
}

export interface Bucket {
  /** Upper bound in ns; Infinity for fio's "≥ 2000 ms". */
  le: number;
  label: string;
}

function formatNs(ns: number): string {
  if (ns >= 1e6) return `${ns / 1e6} ms`;
  if (ns >= 1e3) return `${ns / 1e3} µs`;
  return `${ns} ns`;
}

export function bucketOf(m: Measurement): Bucket | null {
  if (typeof m.dims.lat_le_ns === "number") return { le: m.dims.lat_le_ns, label: `≤ ${formatNs(m.dims.lat_le_ns)}` };
  if (typeof m.dims.lat_ge_ns === "number") return { le: Infinity, label: `≥ ${formatNs(m.dims.lat_ge_ns)}` };
  return null;
}

/** fio's latency buckets per job, from the first to the last bucket that holds any I/O. */
export function latencyHistogram(ms: readonly Measurement[], jobName: (m: Measurement) => string): RunChart | null {
  const rows = ms.flatMap((m) => {
    const b = m.metric === "lat_share" ? bucketOf(m) : null;
    return b ? [{ b, job: jobName(m), share: m.value }] : [];
  });
  const used = rows.filter((r) => r.share > 0).map((r) => r.b.le);
  if (used.length === 0) return null;
  const lo = Math.min(...used);
  const hi = Math.max(...used);
  const bySide = new Map<string, RunChartSeries>();
  for (const r of rows.filter((x) => x.b.le >= lo && x.b.le <= hi).sort((a, b) => a.b.le - b.b.le)) {
    const s = bySide.get(r.job) ?? { name: r.job, points: [] };
    bySide.set(r.job, s);
    s.points.push({ x: r.b.label, y: r.share });
  }
  return { title: "fio latency histogram", kind: "bar", xLabel: "latency bucket (above the previous bound, up to this one)", yLabel: "% of I/Os", series: [...bySide.values()] };
}
