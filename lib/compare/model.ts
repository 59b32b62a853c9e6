// Builds what the compare page draws from a list of runs: series (folded repeats), one section per
// probe with its charts and value table, "what differs", and repeat-variation warnings. Pure and
// deterministic: the compare page (from the database) and a shared comparison (from its
// snapshot) call it with the same CompareRuns and get the same picture.
import type { Measurement, Tool } from "../../probes/core/types";
import { ddDirection, type DdDirection } from "./dd";
import { whatDiffers } from "./differs";
import { foldRuns, pairDdDirections } from "./fold";
import { formatKiB } from "./format";
import { seriesLabel, uniqueLabels } from "./label";
import { bucketPoints, bucketWidth, SAR_METRICS, VM_EFFICIENCY, sarSeries } from "./sar";
import { compactStat, CV_WARN_PERCENT, summarise } from "./stats";
import type { Better, ChartModel, ChartRow, CompareRun, ComparisonModel, CvWarning, SectionModel, SeriesInfo, Stat, TableRow } from "./types";

export interface BuildOptions {
  /** Fold repeats (and runs of one configuration) into median series. */
  fold: boolean;
}

interface Series {
  info: SeriesInfo;
  runs: CompareRun[];
}

/** Accumulates values per point and series, then summarises them. */
class Collector {
  private points = new Map<string, Map<string, number[]>>();
  add(point: string, series: string, value: number) {
    if (!Number.isFinite(value)) return;
    let bySeries = this.points.get(point);
    if (!bySeries) this.points.set(point, (bySeries = new Map()));
    const list = bySeries.get(series);
    if (list) list.push(value);
    else bySeries.set(series, [value]);
  }
  stats(point: string): Record<string, Stat> {
    const out: Record<string, Stat> = {};
    for (const [series, values] of this.points.get(point) ?? []) out[series] = compactStat(summarise(values));
    return out;
  }
  has(point: string): boolean {
    return this.points.has(point);
  }
}

function chartRow(x: number | string, xLabel: string, stats: Record<string, Stat>): ChartRow {
  return { x, xLabel, stats };
}

function seriesKeysIn(rows: ChartRow[], order: string[]): string[] {
  const present = new Set(rows.flatMap((r) => Object.keys(r.stats)));
  return order.filter((k) => present.has(k));
}

// ---------------------------------------------------------------------------------- iozone

export const IOZONE_OPERATIONS: readonly { metric: string; title: string }[] = [
  { metric: "write", title: "write" },
  { metric: "rewrite", title: "rewrite" },
  { metric: "read", title: "read" },
  { metric: "reread", title: "re-read" },
  { metric: "random_read", title: "random read" },
  { metric: "random_write", title: "random write" },
  { metric: "backward_read", title: "backward read" },
  { metric: "record_rewrite", title: "record rewrite" },
  { metric: "stride_read", title: "stride read" },
  { metric: "fwrite", title: "fwrite" },
  { metric: "frewrite", title: "frewrite" },
  { metric: "fread", title: "fread" },
  { metric: "freread", title: "freread" },
];

/** iozone reports KB/s of 1024 bytes; charts show MiB/s. */
const kibToMib = (m: Measurement) => (m.unit === "KiB/s" || m.unit === "KB/s" || m.unit === "kB/s" ? m.value / 1024 : m.value);

function iozoneSection(series: Series[]): SectionModel {
  const keys = series.map((s) => s.info.key);
  const auto = new Collector();
  const tput = new Collector();
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
          auto.add(`${file}|${m.metric}|${rec}`, s.info.key, kibToMib(m));
          const f = files.get(file) ?? { series: new Set<string>(), points: 0 };
          f.series.add(s.info.key);
          f.points++;
          files.set(file, f);
          const r = records.get(file) ?? new Set<number>();
          r.add(rec);
          records.set(file, r);
        } else if (m.metric.startsWith("throughput_")) {
          const procs = Number(m.dims.processes ?? 0);
          tput.add(`${m.metric}|${procs}`, s.info.key, kibToMib(m));
          const t = tputTests.get(m.metric) ?? new Set<number>();
          t.add(procs);
          tputTests.set(m.metric, t);
        }
      }
    }
  }
  const fileSizes = [...files.keys()].sort((a, b) => a - b);
  const charts: ChartModel[] = [];
  const rows: TableRow[] = [];
  for (const file of fileSizes) {
    const group = String(file);
    const recs = [...(records.get(file) ?? [])].sort((a, b) => a - b);
    for (const op of IOZONE_OPERATIONS) {
      const chartRows: ChartRow[] = [];
      for (const rec of recs) {
        const point = `${file}|${op.metric}|${rec}`;
        if (!auto.has(point)) continue;
        const stats = auto.stats(point);
        chartRows.push(chartRow(Math.log2(rec), formatKiB(rec), stats));
        rows.push({ key: `iozone|${point}`, metric: op.title, dims: `record ${formatKiB(rec)}`, unit: "MiB/s", better: "higher", group, cells: stats });
      }
      if (chartRows.length === 0) continue;
      charts.push({
        id: `iozone-${op.metric}-${file}`,
        title: op.title,
        kind: "line",
        xKind: "log2",
        xLabel: "record size",
        yUnit: "MiB/s",
        xTicks: chartRows.map((r) => r.x as number),
        seriesKeys: seriesKeysIn(chartRows, keys),
        rows: chartRows,
        group,
      });
    }
  }
  if (tputTests.size > 0) {
    const chartRows: ChartRow[] = [];
    for (const [metric, procsSet] of tputTests) {
      for (const procs of [...procsSet].sort((a, b) => a - b)) {
        const point = `${metric}|${procs}`;
        const stats = tput.stats(point);
        const name = metric.slice("throughput_".length).replace(/_/g, " ");
        const label = procsSet.size > 1 || procs > 0 ? `${name} (${procs} proc.)` : name;
        chartRows.push(chartRow(label, label, stats));
        rows.push({ key: `iozone|${point}`, metric: `throughput: ${name}`, dims: procs ? `${procs} processes` : "", unit: "MiB/s", better: "higher", cells: stats });
      }
    }
    charts.push({
      id: "iozone-throughput-mode",
      title: "throughput mode (all processes together)",
      kind: "bar",
      xKind: "category",
      xLabel: "test",
      yUnit: "MiB/s",
      seriesKeys: seriesKeysIn(chartRows, keys),
      rows: chartRows,
    });
  }
  // The file size most series have (then the one with most points, then the largest) opens first.
  const defaultFile = [...files.entries()].sort((a, b) => b[1].series.size - a[1].series.size || b[1].points - a[1].points || b[0] - a[0])[0]?.[0];
  return {
    probe: "iozone",
    title: "iozone: throughput against record size",
    seriesKeys: keys,
    charts,
    table: { caption: "iozone throughput in MiB/s (KB/s ÷ 1024), median of the series' runs", rows },
    groups: fileSizes.length > 0 ? fileSizes.map((f) => ({ id: String(f), label: `file ${formatKiB(f)}` })) : undefined,
    defaultGroup: defaultFile !== undefined ? String(defaultFile) : undefined,
    notes: ["Record size on a log₂ axis; throughput in MiB/s (iozone's KB/s are KiB/s)."],
  };
}

// ---------------------------------------------------------------------------------- dd

const DIRECTIONS: readonly DdDirection[] = ["write", "read", "unknown direction"];

function ddSection(series: Series[]): SectionModel {
  const keys = series.map((s) => s.info.key);
  const c = new Collector();
  const seen = new Set<DdDirection>();
  for (const s of series) {
    for (const run of s.runs) {
      const dir = ddDirection(run.params);
      for (const m of run.result?.measurements ?? []) {
        if (m.metric === "throughput") c.add(`throughput|${dir}`, s.info.key, m.value / 1e6);
        else if (m.metric === "bytes") c.add(`bytes|${dir}`, s.info.key, m.value / 2 ** 20);
        else if (m.metric === "seconds") c.add(`seconds|${dir}`, s.info.key, m.value);
        else continue;
        seen.add(dir);
      }
    }
  }
  const dirs = DIRECTIONS.filter((d) => seen.has(d));
  const chartRows = dirs.filter((d) => c.has(`throughput|${d}`)).map((d) => chartRow(d, d, c.stats(`throughput|${d}`)));
  const rows: TableRow[] = [];
  for (const d of dirs) {
    const metrics: [string, string, string, Better][] = [
      ["throughput", "throughput", "MB/s", "higher"],
      ["bytes", "size", "MiB", null],
      ["seconds", "elapsed", "s", null],
    ];
    for (const [id, name, unit, better] of metrics) {
      if (!c.has(`${id}|${d}`)) continue;
      rows.push({ key: `dd|${id}|${d}`, metric: name, dims: d, unit, better, cells: c.stats(`${id}|${d}`), ...(id === "throughput" ? {} : { secondary: true }) });
    }
  }
  const notes = ["Throughput in MB/s (10⁶ bytes per second), as dd prints it."];
  if (seen.has("unknown direction")) {
    notes.push("Imported dd output does not say whether dd wrote or read (its parameters were not recorded): those runs are under “unknown direction”.");
  }
  return {
    probe: "dd",
    title: "dd: sequential throughput",
    seriesKeys: keys,
    charts: chartRows.length
      ? [{ id: "dd-throughput", title: "throughput by direction", kind: "bar", xKind: "category", xLabel: "direction", yUnit: "MB/s", seriesKeys: seriesKeysIn(chartRows, keys), rows: chartRows }]
      : [],
    table: { caption: "dd figures, median of the series' runs", rows },
    notes,
  };
}

// ---------------------------------------------------------------------------------- sar

const SAR_BETTER: Record<string, Better> = { [VM_EFFICIENCY]: "higher", "majflt/s": "lower", await: "lower", "%iowait": "lower" };

function targetDevice(run: CompareRun): string | null {
  const t = run.profile?.target;
  const d = t && typeof t === "object" ? (t as Record<string, unknown>).device : null;
  return typeof d === "string" ? d : null;
}

function sarSection(series: Series[]): SectionModel {
  const keys = series.map((s) => s.info.key);
  const timeline = new Collector();
  const summary = new Collector();
  const xs = new Map<string, Set<number>>();
  const devices: string[] = [];
  const parsed = series.map((s) => s.runs.filter((r) => r.result).map((r) => sarSeries(r.result!, targetDevice(r))));
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
          timeline.add(`${metric}|${p.t}`, s.info.key, p.v);
          set.add(p.t);
        }
        xs.set(metric, set);
      }
      for (const [metric, v] of Object.entries(ss.summary)) if (v !== null) summary.add(metric, s.info.key, v);
    }
    if (devs.size) devices.push(`${s.info.label}: ${[...devs].join(", ")}`);
  });
  const charts: ChartModel[] = [];
  const rows: TableRow[] = [];
  for (const def of SAR_METRICS) {
    const ts = [...(xs.get(def.id) ?? [])].sort((a, b) => a - b);
    if (ts.length > 0) {
      const chartRows = ts.map((t) => chartRow(t, `${t} s`, timeline.stats(`${def.id}|${t}`)));
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
      rows.push({ key: `sar|${def.id}`, metric: def.id, dims: def.id === VM_EFFICIENCY ? "Σpgsteal ÷ Σ(pgscank + pgscand)" : "mean over samples", unit: def.unit, better: SAR_BETTER[def.id] ?? null, cells: summary.stats(def.id) });
    }
  }
  const notes = ["x: seconds since each run's first sample, so runs started at different times line up."];
  if (width > 1) notes.push(`Long runs: each point is the mean of ${width} s of samples (at most ${Math.ceil((lastT + 1) / width)} points per line); the table uses every sample.`);
  if (devices.length) notes.push(`Disk columns from: ${devices.join("; ")}.`);
  return {
    probe: "sar",
    title: "sar: reclaim, writeback and I/O over time",
    seriesKeys: keys,
    charts,
    table: { caption: "sar figures per run (mean of its samples), median of the series' runs", rows },
    notes,
  };
}

// ---------------------------------------------------------------------------------- fio

const FIO_METRICS: readonly { metric: string; title: string; unit: string; scale: number; better: Better; chart: boolean }[] = [
  { metric: "bw", title: "bandwidth", unit: "MiB/s", scale: 1 / 2 ** 20, better: "higher", chart: true },
  { metric: "iops", title: "IOPS", unit: "IOPS", scale: 1, better: "higher", chart: true },
  { metric: "clat_p99", title: "p99 completion latency", unit: "µs", scale: 1 / 1000, better: "lower", chart: true },
  { metric: "lat_mean", title: "mean latency", unit: "µs", scale: 1 / 1000, better: "lower", chart: false },
];

function fioSection(series: Series[]): SectionModel {
  const keys = series.map((s) => s.info.key);
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
  const c = new Collector();
  const cats: string[] = [];
  for (const s of series) {
    for (const run of s.runs) {
      // fio reports the directions a job did not use, as zeros: they have nothing to compare.
      const ms = run.result?.measurements ?? [];
      const idle = new Set(ms.filter((m) => m.metric === "bw" && m.value === 0).map((m) => `${m.dims.job}|${m.dims.instance}|${m.dims.direction}`));
      for (const m of ms) {
        const def = FIO_METRICS.find((d) => d.metric === m.metric);
        if (!def || idle.has(`${m.dims.job}|${m.dims.instance}|${m.dims.direction}`)) continue;
        const dir = String(m.dims.direction ?? "");
        const cat = byDirection ? dir || "all" : `${m.dims.job ?? "job"} · ${dir}`;
        if (!cats.includes(cat)) cats.push(cat);
        c.add(`${m.metric}|${cat}`, s.info.key, m.value * def.scale);
      }
    }
  }
  const charts: ChartModel[] = [];
  const rows: TableRow[] = [];
  for (const def of FIO_METRICS) {
    const chartRows = cats.filter((cat) => c.has(`${def.metric}|${cat}`)).map((cat) => chartRow(cat, cat, c.stats(`${def.metric}|${cat}`)));
    for (const r of chartRows) rows.push({ key: `fio|${def.metric}|${r.x}`, metric: def.title, dims: String(r.x), unit: def.unit, better: def.better, cells: r.stats });
    if (def.chart && chartRows.length) {
      charts.push({ id: `fio-${def.metric}`, title: def.title, kind: "bar", xKind: "category", xLabel: byDirection ? "direction" : "job · direction", yUnit: def.unit, seriesKeys: seriesKeysIn(chartRows, keys), rows: chartRows });
    }
  }
  return {
    probe: "fio",
    title: "fio: bandwidth, IOPS and tail latency",
    seriesKeys: keys,
    charts,
    table: { caption: "fio figures, median of the series' runs", rows },
    notes: ["Bandwidth in MiB/s; latencies in µs (fio reports ns)."],
  };
}

// ---------------------------------------------------------------------------------- all

const PROBE_ORDER: readonly Tool[] = ["iozone", "dd", "sar", "fio"];

function reasonSkipped(run: CompareRun): string | null {
  if (!run.result) return run.status === "SUCCEEDED" ? "no parsed result" : `no result (${run.status.toLowerCase()})`;
  if (run.result.tool !== run.probe) return `result is ${run.result.tool} output`;
  if (run.result.measurements.length === 0) return "no measurements";
  return null;
}

/** "3 writes, 3 reads" for a dd series holding both directions ("" for one of each); default otherwise. */
function countText(runs: readonly CompareRun[]): string | undefined {
  if (runs[0]?.probe !== "dd") return undefined;
  const dirs = runs.map((r) => ddDirection(r.params));
  const w = dirs.filter((d) => d === "write").length;
  const r = dirs.filter((d) => d === "read").length;
  if (w === 0 || r === 0) return undefined;
  if (w === 1 && r === 1) return "";
  return `${w} write${w === 1 ? "" : "s"}, ${r} read${r === 1 ? "" : "s"}`;
}

export function buildComparison(runs: readonly CompareRun[], opts: BuildOptions): ComparisonModel {
  const skipped: ComparisonModel["skipped"] = [];
  const drawable: CompareRun[] = [];
  for (const r of runs) {
    const why = reasonSkipped(r);
    if (why) skipped.push({ id: r.id, label: r.label, reason: why });
    else drawable.push(r);
  }
  const folded = foldRuns(drawable, opts.fold);
  const groups = opts.fold ? pairDdDirections(folded, (r) => ddDirection(r.params)) : folded;
  const labels = uniqueLabels(groups.map((g) => seriesLabel(g, countText(g))));
  const series: Series[] = groups.map((g, i) => ({
    runs: g,
    info: { key: `s${i}`, label: labels[i]!, probe: g[0]!.probe, runIds: g.map((r) => r.id), runLabels: g.map((r) => r.label), index: i, maxCv: null },
  }));
  const sections: SectionModel[] = [];
  for (const probe of PROBE_ORDER) {
    const of = series.filter((s) => s.info.probe === probe);
    if (of.length === 0) continue;
    sections.push(probe === "iozone" ? iozoneSection(of) : probe === "dd" ? ddSection(of) : probe === "sar" ? sarSection(of) : fioSection(of));
  }
  const cvWarnings: CvWarning[] = [];
  for (const s of series) {
    if (s.runs.length < 2) continue;
    let count = 0;
    let total = 0;
    let worst: CvWarning["worst"] | null = null;
    for (const section of sections) {
      for (const row of section.table.rows) {
        if (row.secondary) continue;
        const cv = row.cells[s.info.key]?.cv;
        if (cv === null || cv === undefined) continue;
        total++;
        s.info.maxCv = Math.max(s.info.maxCv ?? 0, cv);
        if (cv > CV_WARN_PERCENT) {
          count++;
          if (!worst || cv > worst.cv) worst = { what: `${row.metric}${row.dims ? ` (${row.dims}${row.group ? `, file ${formatKiB(Number(row.group))}` : ""})` : ""}`, cv };
        }
      }
    }
    if (worst) cvWarnings.push({ seriesKey: s.info.key, label: s.info.label, count, total, worst });
  }
  return {
    series: series.map((s) => s.info),
    sections,
    differs: whatDiffers(series.map((s) => ({ key: s.info.key, label: s.info.label, runs: s.runs }))),
    cvWarnings,
    skipped,
    folded: opts.fold,
  };
}
