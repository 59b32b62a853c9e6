// How sar results are drawn: time series per section for one run; for a comparison, the reclaim,
// writeback and I/O columns on seconds since each run's first sample (probes/sar/series.ts).
import type { Better } from "../core/metrics";
import type { Measurement, NormalisedResult } from "../core/types";
import { seriesKeysIn, ValueCollector, type ChartDraft, type ProbeView, type RunChart, type SectionDraft, type TableRowDraft, type ViewSeries, groupBy as group } from "../core/view";
import { bucketPoints, bucketWidth, SAR_METRICS, sarSeries, VM_EFFICIENCY } from "./series";
import { timelineFromSar } from "./timeline";

// sar -B's traffic (paged in and out, faults) moves on every host; its reclaim columns stay at
// zero on a healthy one, so each gets a chart of its own rather than sharing one scale.
const PAGING_TRAFFIC = new Set(["pgpgin/s", "pgpgout/s", "fault/s"]);

/**
 * Columns drawn on a run page (the rest are in its table). Page scanning (pgscank/s, pgscand/s)
 * and kbdirty are not among them: the run page's diagnosis draws them (lib/diagnosis/run-diagnosis.ts),
 * and one column is drawn once.
 */
const RUN_PAGE_METRICS = new Set([...PAGING_TRAFFIC, "pgsteal/s", "majflt/s", "%vmeff", "%util", "await", "%iowait", "%user", "%system", "kbmemfree", "kbcached"]);

/** One chart per section and unit: a percentage and milliseconds never share a value axis. */
function chartOf(m: Measurement): { title: string; unit: string } {
  const section = String(m.dims.section);
  if (section === "paging") {
    if (PAGING_TRAFFIC.has(m.metric)) return { title: "paging: pages in/out and faults", unit: "per s" };
    return m.metric === "%vmeff" ? { title: "paging: vm efficiency", unit: "%" } : { title: "paging: reclaim", unit: "pages/s" };
  }
  if (section === "disk") return m.metric === "%util" ? { title: "disk: %util", unit: "%" } : { title: `disk: ${m.metric}`, unit: "ms" };
  if (section === "memory") return { title: section, unit: "kB" };
  if (section === "cpu") return { title: section, unit: "%" };
  return { title: section, unit: "" };
}

function runCharts(result: NormalisedResult): RunChart[] {
  const timed = result.measurements.filter((m) => m.dims.time !== "average" && RUN_PAGE_METRICS.has(m.metric));
  const label = (m: Measurement) =>
    `${m.metric}${m.dims.device ? ` ${m.dims.device}` : ""}${m.dims.cpu !== undefined && m.dims.cpu !== "all" ? ` cpu${m.dims.cpu}` : ""}`;
  return [...group(timed, (m) => chartOf(m).title)].map(([section, rows]) => ({
    title: `sar ${section}`,
    kind: "line" as const,
    xLabel: "time",
    yLabel: chartOf(rows[0]!).unit,
    series: [...group(rows, label)].map(([name, pts]) => ({ name, points: pts.map((p) => ({ x: String(p.dims.time), y: p.value })) })),
  }));
}

const SAR_BETTER: Record<string, Better> = { [VM_EFFICIENCY]: "higher", "majflt/s": "lower", await: "lower", "%iowait": "lower" };

function compareSection(series: readonly ViewSeries[]): SectionDraft {
  const keys = series.map((s) => s.key);
  const timeline = new ValueCollector();
  const summary = new ValueCollector();
  const xs = new Map<string, Set<number>>();
  const devices: string[] = [];
  const parsed = series.map((s) => s.runs.filter((r) => r.result).map((r) => sarSeries(r.result!, r.targetDevice)));
  const lastT = Math.max(0, ...parsed.flat().flatMap((ss) => Object.values(ss.points).flatMap((pts) => pts.map((p) => p.t))));
  const width = bucketWidth(lastT);
  series.forEach((s, i) => {
    const devs = new Set<string>();
    for (const ss of parsed[i]!) {
      if (ss.device) devs.add(ss.device);
      for (const [metric, pts] of Object.entries(ss.points)) {
        const set = xs.get(metric) ?? new Set<number>();
        for (const p of bucketPoints(pts, width)) {
          if (p.v === null) continue;
          timeline.add(`${metric}|${p.t}`, s.key, p.v);
          set.add(p.t);
        }
        xs.set(metric, set);
      }
      for (const [metric, v] of Object.entries(ss.summary)) if (v !== null) summary.add(metric, s.key, v);
    }
    if (devs.size) devices.push(`${s.label}: ${[...devs].join(", ")}`);
  });
  const charts: ChartDraft[] = [];
  const rows: TableRowDraft[] = [];
  for (const def of SAR_METRICS) {
    const ts = [...(xs.get(def.id) ?? [])].sort((a, b) => a - b);
    if (ts.length > 0) {
      const chartRows = ts.map((t) => ({ x: t, xLabel: `${t} s`, values: timeline.values(`${def.id}|${t}`) }));
      charts.push({
        id: `sar-${def.id.replace(/[^a-z0-9]+/gi, "-").replace(/^-+|-+$/g, "")}`,
        title: def.title,
        note: def.id === VM_EFFICIENCY ? "No point where nothing was scanned (the ratio is undefined there)." : def.section === "disk" ? "Disk: the run's target device when sar reported it, else its busiest device." : undefined,
        kind: "line",
        xKind: "linear",
        xLabel: "elapsed since the run's first sample (s)",
        yUnit: def.unit,
        seriesKeys: seriesKeysIn(chartRows, keys),
        rows: chartRows,
      });
    }
    if (summary.has(def.id)) {
      rows.push({ key: `sar|${def.id}`, metric: def.id, dims: def.id === VM_EFFICIENCY ? "Σpgsteal ÷ Σ(pgscank + pgscand)" : "mean over samples", unit: def.unit, better: SAR_BETTER[def.id] ?? null, values: summary.values(def.id) });
    }
  }
  const notes = ["x: seconds since each run's first sample, so runs started at different times line up."];
  if (width > 1) notes.push(`Long runs: each point is the mean of ${width} s of samples (at most ${Math.ceil((lastT + 1) / width)} points per line); the table uses every sample.`);
  if (devices.length) notes.push(`Disk columns from: ${devices.join("; ")}.`);
  return {
    title: "sar: reclaim, writeback and I/O over time",
    charts,
    table: { caption: "sar figures per run (mean of its samples), median of the series' runs", rows },
    notes,
    // Counters are often 0 (no reclaim): a log axis cannot show them.
    logY: false,
  };
}

// No `progress`: sar's own samples are the diagnosis timeline, drawn on their clock times by the
// run page's diagnosis; a progress series would draw them again on elapsed seconds.
export const sarView: ProbeView = { runCharts, compareSection, timeline: (result) => timelineFromSar(result.measurements) };
