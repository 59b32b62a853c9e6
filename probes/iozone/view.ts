// How iozone results are drawn: throughput against record size (log₂ axis), one chart per
// operation and file size, plus throughput mode's totals. Throughput is shown in MiB/s.
import { displayUnit } from "../core/metrics";
import { formatKiB } from "../core/text";
import type { Measurement, NormalisedResult } from "../core/types";
import { seriesKeysIn, ValueCollector, type ChartDraft, type ChartRowDraft, type ProbeView, type RunChart, type SectionDraft, type TableRowDraft, type ViewSeries, groupBy as group } from "../core/view";
import { IOZONE_OPERATIONS } from "./metrics";
import { iozoneProgress } from "./progress-series";

/** iozone's KB/s are KiB/s; every view shows MiB/s. */
const mib = (m: Measurement) => m.value * displayUnit(m.unit).scale;
const UNIT = "MiB/s";

function runCharts(result: NormalisedResult): RunChart[] {
  const ms = result.measurements;
  const charts: RunChart[] = [];
  const auto = ms.filter((m) => "record_kib" in m.dims);
  for (const [file, rows] of group(auto, (m) => String(m.dims.file_kib))) {
    charts.push({
      title: `Throughput against record size, file ${Number(file).toLocaleString("en-US")} KiB`,
      kind: "line",
      xLabel: "record size (KiB)",
      yLabel: UNIT,
      logX: true,
      series: [...group(rows, (m) => m.metric)].map(([metric, pts]) => ({ name: metric, points: pts.map((p) => ({ x: Number(p.dims.record_kib), y: mib(p) })) })),
    });
  }
  const tp = ms.filter((m) => m.metric.startsWith("throughput_"));
  if (tp.length) {
    charts.push({
      title: "Throughput mode (all processes)",
      kind: "bar",
      xLabel: "test",
      yLabel: UNIT,
      series: [{ name: UNIT, points: tp.map((m) => ({ x: m.metric.replace("throughput_", ""), y: mib(m) })) }],
    });
  }
  return charts;
}

function compareSection(series: readonly ViewSeries[]): SectionDraft {
  const keys = series.map((s) => s.key);
  const auto = new ValueCollector();
  const tput = new ValueCollector();
  const files = new Map<number, { series: Set<string>; points: number }>();
  const records = new Map<number, Set<number>>();
  const tputTests = new Map<string, Set<number>>();
  for (const s of series) {
    for (const run of s.runs) {
      for (const m of run.result?.measurements ?? []) {
        if (typeof m.dims.record_kib === "number" || typeof m.dims.record_kib === "string") {
          const file = Number(m.dims.file_kib);
          const rec = Number(m.dims.record_kib);
          if (!(rec > 0) || !Number.isFinite(file)) continue;
          auto.add(`${file}|${m.metric}|${rec}`, s.key, mib(m));
          const f = files.get(file) ?? { series: new Set<string>(), points: 0 };
          f.series.add(s.key);
          f.points++;
          files.set(file, f);
          const r = records.get(file) ?? new Set<number>();
          r.add(rec);
          records.set(file, r);
        } else if (m.metric.startsWith("throughput_")) {
          const procs = Number(m.dims.processes ?? 0);
          tput.add(`${m.metric}|${procs}`, s.key, mib(m));
          const t = tputTests.get(m.metric) ?? new Set<number>();
          t.add(procs);
          tputTests.set(m.metric, t);
        }
      }
    }
  }
  const fileSizes = [...files.keys()].sort((a, b) => a - b);
  const charts: ChartDraft[] = [];
  const rows: TableRowDraft[] = [];
  for (const file of fileSizes) {
    const groupId = String(file);
    const recs = [...(records.get(file) ?? [])].sort((a, b) => a - b);
    for (const op of IOZONE_OPERATIONS) {
      const chartRows: ChartRowDraft[] = [];
      for (const rec of recs) {
        const point = `${file}|${op.id}|${rec}`;
        if (!auto.has(point)) continue;
        const values = auto.values(point);
        chartRows.push({ x: Math.log2(rec), xLabel: formatKiB(rec), values });
        rows.push({ key: `iozone|${point}`, metric: op.title, dims: `record ${formatKiB(rec)}`, unit: UNIT, better: "higher", group: groupId, values });
      }
      if (chartRows.length === 0) continue;
      charts.push({
        id: `iozone-${op.id}-${file}`,
        title: op.title,
        kind: "line",
        xKind: "log2",
        xLabel: "record size",
        yUnit: UNIT,
        xTicks: chartRows.map((r) => r.x as number),
        seriesKeys: seriesKeysIn(chartRows, keys),
        rows: chartRows,
        group: groupId,
      });
    }
  }
  if (tputTests.size > 0) {
    const chartRows: ChartRowDraft[] = [];
    for (const [metric, procsSet] of tputTests) {
      for (const procs of [...procsSet].sort((a, b) => a - b)) {
        const point = `${metric}|${procs}`;
        const values = tput.values(point);
        const name = metric.slice("throughput_".length).replace(/_/g, " ");
        const label = procsSet.size > 1 || procs > 0 ? `${name} (${procs} proc.)` : name;
        chartRows.push({ x: label, xLabel: label, values });
        rows.push({ key: `iozone|${point}`, metric: `throughput: ${name}`, dims: procs ? `${procs} processes` : "", unit: UNIT, better: "higher", values });
      }
    }
    charts.push({
      id: "iozone-throughput-mode",
      title: "throughput mode (all processes together)",
      kind: "bar",
      xKind: "category",
      xLabel: "test",
      yUnit: UNIT,
      seriesKeys: seriesKeysIn(chartRows, keys),
      rows: chartRows,
    });
  }
  // The file size most series have (then the one with most points, then the largest) opens first.
  const defaultFile = [...files.entries()].sort((a, b) => b[1].series.size - a[1].series.size || b[1].points - a[1].points || b[0] - a[0])[0]?.[0];
  return {
    title: "iozone: throughput against record size",
    charts,
    table: { caption: "iozone throughput in MiB/s (KB/s ÷ 1024), median of the series' runs", rows },
    groups: fileSizes.length > 0 ? fileSizes.map((f) => ({ id: String(f), label: `file ${formatKiB(f)}` })) : undefined,
    defaultGroup: defaultFile !== undefined ? String(defaultFile) : undefined,
    notes: ["Record size on a log₂ axis; throughput in MiB/s (iozone's KB/s are KiB/s)."],
    logY: true,
  };
}

export const iozoneView: ProbeView = { runCharts, compareSection, progress: iozoneProgress };
