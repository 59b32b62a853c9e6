// How fio results are drawn: bandwidth (MiB/s), IOPS and tail latency (µs) per job and direction.
import { displayUnit, type Better } from "../core/metrics";
import type { Measurement, NormalisedResult } from "../core/types";
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
  const ms: readonly Measurement[] = result.measurements;
  const idle = idleSides(ms);
  const def = (metric: string) => FIO_METRICS.find((d) => d.metric === metric)!;
  const by = (metric: string) =>
    ms.filter((m) => m.metric === metric && !idle.has(sideKey(m))).map((m) => ({ x: `${m.dims.job} ${m.dims.direction}`, y: m.value * def(metric).scale }));
  const charts: RunChart[] = [
    { title: "fio bandwidth", kind: "bar", xLabel: "job", yLabel: def("bw").unit, series: [{ name: def("bw").unit, points: by("bw") }] },
    { title: "fio IOPS", kind: "bar", xLabel: "job", yLabel: "IOPS", series: [{ name: "IOPS", points: by("iops") }] },
    { title: "fio p99 completion latency", kind: "bar", xLabel: "job", yLabel: def("clat_p99").unit, series: [{ name: `p99 ${def("clat_p99").unit}`, points: by("clat_p99") }] },
  ];
  return charts.filter((c) => (c.series[0]?.points.length ?? 0) > 0);
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
  return {
    title: "fio: bandwidth, IOPS and tail latency",
    charts,
    table: { caption: "fio figures, median of the series' runs", rows },
    notes: ["Bandwidth in MiB/s; latencies in µs (fio reports ns)."],
    logY: true,
  };
}

export const fioView: ProbeView = { runCharts, compareSection };
