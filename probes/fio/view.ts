// How fio results are drawn: bandwidth (MiB/s), IOPS and tail latency (µs) per job and direction,
// the completion-latency percentile curve and histogram, and the per-second figures over time.
import { displayUnit, type Better } from "../core/metrics";
import type { Measurement, NormalisedResult } from "../core/types";
import { bucketOf, clatPercentile, latencyHistogram, percentileCurve, type Bucket } from "./view-latency";
import { fioProgress, seriesCharts } from "./view-series";
import { mixedTotals } from "./totals";
import { sniaRoundsChart } from "./snia/view";
import { seriesKeysIn, ValueCollector, type ChartDraft, type ProbeView, type RunChart, type SectionDraft, type TableRowDraft, type ViewSeries } from "../core/view";

/** fio stores B/s and ns; bandwidth is shown in MiB/s and latencies in µs. */
const FIO_METRICS: readonly { metric: string; title: string; unit: string; scale: number; better: Better; chart: boolean }[] = [
  { metric: "bw", title: "bandwidth", ...displayUnit("B/s"), better: "higher", chart: true },
  { metric: "iops", title: "IOPS", unit: "IOPS", scale: 1, better: "higher", chart: true },
  { metric: "clat_p99", title: "p99 completion latency", ...displayUnit("ns"), better: "lower", chart: true },
  { metric: "lat_mean", title: "mean latency", ...displayUnit("ns"), better: "lower", chart: false },
];

/** fio reports the directions a job did not use, as zeros: they have nothing to draw or compare. */
const sideKey = (m: Measurement) => `${m.dims.job}|${m.dims.instance}|${m.dims.direction}`;
function idleSides(ms: readonly Measurement[]): Set<string> {
  return new Set(ms.filter((m) => m.metric === "bw" && m.value === 0).map(sideKey));
}

function runCharts(result: NormalisedResult): RunChart[] {
  // Every fio chart names the fio that measured it ("fio-3.33"): figures differ across versions.
  const source = result.toolVersion ? `fio-${result.toolVersion}` : undefined;
  return drawRun(result).map((c) => (source ? { ...c, source } : c));
}

function drawRun(result: NormalisedResult): RunChart[] {
  const ms: readonly Measurement[] = result.measurements;
  const idle = idleSides(ms);
  const def = (metric: string) => FIO_METRICS.find((d) => d.metric === metric)!;
  // A mixed job (randrw) also gets its total: read and write added (mixedTotals).
  const by = (metric: string) => [
    ...ms.filter((m) => m.metric === metric && !idle.has(sideKey(m))).map((m) => ({ x: `${m.dims.job} ${m.dims.direction}`, y: m.value * def(metric).scale })),
    ...(metric === "clat_p99" ? [] : mixedTotals(ms, metric).map((t) => ({ x: `${t.job} total`, y: t.value * def(metric).scale }))),
  ];
  const charts: RunChart[] = [
    { title: "fio bandwidth", kind: "bar", xLabel: "job", yLabel: def("bw").unit, series: [{ name: def("bw").unit, points: by("bw") }] },
    { title: "fio IOPS", kind: "bar", xLabel: "job", yLabel: "IOPS", series: [{ name: "IOPS", points: by("iops") }] },
    { title: "fio p99 completion latency", kind: "bar", xLabel: "job", yLabel: def("clat_p99").unit, series: [{ name: `p99 ${def("clat_p99").unit}`, points: by("clat_p99") }] },
  ];
  const sideName = (m: Measurement) => `${m.dims.job}${m.dims.instance ? ` #${m.dims.instance}` : ""} ${m.dims.direction}`;
  const curve = percentileCurve(ms, (m) => !idle.has(sideKey(m)), sideName);
  const histogram = latencyHistogram(ms, (m) => `${m.dims.job}${m.dims.instance ? ` #${m.dims.instance}` : ""}`);
  const rounds = sniaRoundsChart(result);
  return [...(rounds ? [rounds] : []), ...charts.filter((c) => (c.series[0]?.points.length ?? 0) > 0), ...(curve ? [curve] : []), ...(histogram ? [histogram] : []), ...seriesCharts(result)];
}

/** One per nine: every run has them up to p99.99 (fio's default list too), ours also p99.999. */
const CURVE_PERCENTILES = [50, 90, 99, 99.9, 99.99, 99.999];

/** One curve chart per direction: x the percentiles (equally spaced, like nines), a line per series. */
function percentileCharts(series: readonly ViewSeries[], keys: string[], byDirection: boolean): { charts: ChartDraft[]; rows: TableRowDraft[] } {
  const c = new ValueCollector();
  const sides: string[] = [];
  for (const s of series) {
    for (const run of s.runs) {
      const ms = run.result?.measurements ?? [];
      const idle = idleSides(ms);
      for (const m of ms) {
        const p = clatPercentile(m.metric);
        if (p === null || !CURVE_PERCENTILES.includes(p) || idle.has(sideKey(m))) continue;
        const side = byDirection ? String(m.dims.direction ?? "all") : `${m.dims.job ?? "job"} · ${m.dims.direction ?? ""}`;
        if (!sides.includes(side)) sides.push(side);
        c.add(`${side}|${p}`, s.key, m.value / 1000);
      }
    }
  }
  const charts: ChartDraft[] = [];
  const rows: TableRowDraft[] = [];
  for (const side of sides) {
    const chartRows = CURVE_PERCENTILES.filter((p) => c.has(`${side}|${p}`)).map((p) => ({ x: `p${p}`, xLabel: `p${p}`, values: c.values(`${side}|${p}`) }));
    if (chartRows.length < 2) continue;
    // p99 has its own row already (the clat_p99 figure, same value): the curve adds the other nines.
    for (const r of chartRows) if (r.x !== "p99") rows.push({ key: `fio|clat_curve|${side}|${r.x}`, metric: `${r.x} completion latency`, dims: side, unit: "µs", better: "lower", values: r.values });
    charts.push({
      id: `fio-clat-curve-${side.replace(/[^a-z0-9]+/gi, "-")}`,
      title: `completion latency percentiles, ${side}`,
      note: "Each step to the right adds a nine; lower is better.",
      kind: "line",
      xKind: "category",
      xLabel: "percentile",
      yUnit: "µs",
      seriesKeys: seriesKeysIn(chartRows, keys),
      rows: chartRows,
    });
  }
  return { charts, rows };
}

function compareSection(series: readonly ViewSeries[]): SectionDraft {
  const keys = series.map((s) => s.key);
  // x is the direction when no run has two jobs in one direction (so differently named jobs
  // still line up), else "job · direction".
  const byDirection = series.every((s) =>
    s.runs.every((run) => {
      const jobsPerDir = new Map<string, Set<string>>();
      for (const m of run.result?.measurements ?? []) {
        const d = String(m.dims.direction ?? "");
        const set = jobsPerDir.get(d) ?? new Set<string>();
        set.add(String(m.dims.job ?? ""));
        jobsPerDir.set(d, set);
      }
      return [...jobsPerDir.values()].every((j) => j.size <= 1);
    }),
  );
  const c = new ValueCollector();
  const cats: string[] = [];
  for (const s of series) {
    for (const run of s.runs) {
      const ms = run.result?.measurements ?? [];
      const idle = idleSides(ms);
      for (const m of ms) {
        const def = FIO_METRICS.find((d) => d.metric === m.metric);
        if (!def || idle.has(sideKey(m))) continue;
        const dir = String(m.dims.direction ?? "");
        const cat = byDirection ? dir || "all" : `${m.dims.job ?? "job"} · ${dir}`;
        if (!cats.includes(cat)) cats.push(cat);
        c.add(`${m.metric}|${cat}`, s.key, m.value * def.scale);
      }
    }
  }
  const charts: ChartDraft[] = [];
  const rows: TableRowDraft[] = [];
  for (const def of FIO_METRICS) {
    const chartRows = cats.filter((cat) => c.has(`${def.metric}|${cat}`)).map((cat) => ({ x: cat, xLabel: cat, values: c.values(`${def.metric}|${cat}`) }));
    for (const r of chartRows) rows.push({ key: `fio|${def.metric}|${r.x}`, metric: def.title, dims: String(r.x), unit: def.unit, better: def.better, values: r.values });
    if (def.chart && chartRows.length) {
      charts.push({ id: `fio-${def.metric}`, title: def.title, kind: "bar", xKind: "category", xLabel: byDirection ? "direction" : "job · direction", yUnit: def.unit, seriesKeys: seriesKeysIn(chartRows, keys), rows: chartRows });
    }
  }
  const curves = percentileCharts(series, keys, byDirection);
  const histogram = histogramChart(series, keys);
  return {
    title: "fio: bandwidth, IOPS and tail latency",
    charts: [...charts, ...curves.charts, ...(histogram ? [histogram] : [])],
    table: { caption: "fio figures, median of the series' runs", rows: [...rows, ...curves.rows] },
    notes: ["Bandwidth in MiB/s; latencies in µs (fio reports ns)."],
    logY: true,
  };
}

/** fio's latency buckets side by side: a run's share per bucket (the mean over its jobs). */
function histogramChart(series: readonly ViewSeries[], keys: string[]): ChartDraft | null {
  const c = new ValueCollector();
  const buckets = new Map<number, Bucket>();
  for (const s of series) {
    for (const run of s.runs) {
      const perBucket = new Map<number, number[]>();
      for (const m of run.result?.measurements ?? []) {
        const b = m.metric === "lat_share" ? bucketOf(m) : null;
        if (!b) continue;
        buckets.set(b.le, b);
        perBucket.set(b.le, [...(perBucket.get(b.le) ?? []), m.value]);
      }
      for (const [le, shares] of perBucket) c.add(String(le), s.key, shares.reduce((a, v) => a + v, 0) / shares.length);
    }
  }
  const used = [...buckets.keys()].filter((le) => Object.values(c.values(String(le))).some((vs) => vs.some((v) => v > 0)));
  if (used.length === 0) return null;
  const [lo, hi] = [Math.min(...used), Math.max(...used)];
  const rows = [...buckets.values()]
    .filter((b) => b.le >= lo && b.le <= hi)
    .sort((a, b) => a.le - b.le)
    .map((b) => ({ x: b.label, xLabel: b.label, values: c.values(String(b.le)) }));
  return { id: "fio-latency-histogram", title: "latency histogram", note: "fio's latency buckets: the share of a run's I/Os above the previous bound, up to this one.", kind: "bar", xKind: "category", xLabel: "latency", yUnit: "% of I/Os", seriesKeys: seriesKeysIn(rows, keys), rows };
}

export const fioView: ProbeView = { runCharts, compareSection, progress: fioProgress };
