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

const LARGEST = "largest";

/** Charts and rows of the "largest file" group: per series, its values at its own largest file size. */
function largestFileGroup(
  keys: readonly string[],
  files: ReadonlyMap<number, { series: Set<string> }>,
  records: ReadonlyMap<number, Set<number>>,
  auto: ValueCollector,
): { charts: ChartDraft[]; rows: TableRowDraft[]; sizes: string } {
  const fileOf = new Map<string, number>();
  for (const [file, f] of files) for (const k of f.series) if (file > (fileOf.get(k) ?? -1)) fileOf.set(k, file);
  const recs = [...new Set([...fileOf.values()].flatMap((f) => [...(records.get(f) ?? [])]))].sort((a, b) => a - b);
  const charts: ChartDraft[] = [];
  const rows: TableRowDraft[] = [];
  for (const op of IOZONE_OPERATIONS) {
    const chartRows: ChartRowDraft[] = [];
    for (const rec of recs) {
      const values: Record<string, number[]> = {};
      for (const [k, file] of fileOf) {
        const v = auto.values(`${file}|${op.id}|${rec}`)[k];
        if (v) values[k] = v;
      }
      if (Object.keys(values).length === 0) continue;
      chartRows.push({ x: Math.log2(rec), xLabel: formatKiB(rec), values });
      rows.push({ key: `iozone|${LARGEST}|${op.id}|${rec}`, metric: op.title, dims: `record ${formatKiB(rec)}`, unit: UNIT, better: "higher", group: LARGEST, values });
    }
    if (chartRows.length === 0) continue;
    charts.push(recordSizeChart({ id: `iozone-${op.id}-${LARGEST}`, title: `${op.title} (file sizes differ)`, rows: chartRows, keys, group: LARGEST }));
  }
  const sizes = [...new Set(fileOf.values())].sort((a, b) => a - b).map(formatKiB).join(", ");
  return { charts, rows, sizes };
}

/** One operation's throughput over record sizes, a line per series, on a log2 axis. */
function recordSizeChart(opts: { id: string; title: string; rows: ChartRowDraft[]; keys: readonly string[]; group: string }): ChartDraft {
  const { id, title, rows, keys, group } = opts;
  return {
    id,
    title,
    kind: "line",
    xKind: "log2",
    xLabel: "record size",
    yUnit: UNIT,
    xTicks: rows.map((r) => r.x as number),
    seriesKeys: seriesKeysIn(rows, keys),
    rows,
    group,
  };
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
      charts.push(recordSizeChart({ id: `iozone-${op.id}-${file}`, title: op.title, rows: chartRows, keys, group: groupId }));
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
  const groups = fileSizes.map((f) => ({ id: String(f), label: `file ${formatKiB(f)}` }));
  // No file size common to every series (the guides' references use 4 GiB files, a quick run of
  // one's own 64 MiB): one more group sets each series' largest file beside the others, and opens first.
  const shared = defaultFile !== undefined && files.get(defaultFile)!.series.size === new Set(keys.filter((k) => [...files.values()].some((f) => f.series.has(k)))).size;
  const largest = !shared && fileSizes.length > 1 ? largestFileGroup(keys, files, records, auto) : null;
  if (largest) {
    charts.push(...largest.charts);
    rows.push(...largest.rows);
    groups.unshift({ id: LARGEST, label: `each series' largest file (${largest.sizes})` });
  }
  return {
    title: "iozone: throughput against record size",
    charts,
    table: { caption: "iozone throughput in MiB/s (KB/s ÷ 1024), median of the series' runs", rows },
    groups: groups.length > 0 ? groups : undefined,
    defaultGroup: largest ? LARGEST : defaultFile !== undefined ? String(defaultFile) : undefined,
    notes: ["Record size on a log₂ axis; throughput in MiB/s (iozone's KB/s are KiB/s)."],
    logY: true,
  };
}

export const iozoneView: ProbeView = { runCharts, compareSection, progress: iozoneProgress };
