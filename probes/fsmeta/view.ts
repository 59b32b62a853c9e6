// How metadata results are drawn: files per second and latency of each step (create, stat,
// delete) side by side, so a flat and a tree run, or two file systems, line up step by step.
import { displayUnit } from "../core/metrics";
import type { NormalisedResult } from "../core/types";
import { seriesKeysIn, ValueCollector, type ChartDraft, type ProbeView, type RunChart, type SectionDraft, type TableRowDraft, type ViewSeries } from "../core/view";
import { PHASES } from "./command";
import { FSMETA_METRICS } from "./metrics";

const defs = FSMETA_METRICS.metrics.map((d) => ({ ...d, show: displayUnit(d.unit) }));
const CHARTED = new Set(["rate", "lat_p99"]);

/** Steps in run order; anything else a hand-edited import carries goes last. */
function steps(ops: Iterable<string>): string[] {
  const all = [...new Set(ops)];
  return [...PHASES.filter((p) => all.includes(p)), ...all.filter((o) => !(PHASES as readonly string[]).includes(o))];
}

function runCharts(result: NormalisedResult): RunChart[] {
  const out: RunChart[] = [];
  for (const def of defs.filter((d) => CHARTED.has(d.id))) {
    const ms = result.measurements.filter((m) => m.metric === def.id);
    const order = steps(ms.map((m) => String(m.dims.op)));
    const points = order.map((op) => ({ x: op, y: (ms.find((m) => String(m.dims.op) === op)?.value ?? 0) * def.show.scale }));
    if (points.length) out.push({ title: def.title, kind: "bar", xLabel: "step", yLabel: def.show.unit, series: [{ name: def.show.unit, points }] });
  }
  return out;
}

function compareSection(series: readonly ViewSeries[]): SectionDraft {
  const keys = series.map((s) => s.key);
  const c = new ValueCollector();
  const ops: string[] = [];
  const layouts = new Set<string>();
  for (const s of series) {
    for (const run of s.runs) {
      for (const m of run.result?.measurements ?? []) {
        const def = defs.find((d) => d.id === m.metric);
        if (!def) continue;
        const op = String(m.dims.op ?? "all");
        ops.push(op);
        layouts.add(`${m.dims.files ?? "?"} files in ${m.dims.dirs ?? "?"} director${m.dims.dirs === 1 ? "y" : "ies"}`);
        c.add(`${m.metric}|${op}`, s.key, m.value * def.show.scale);
      }
    }
  }
  const order = steps(ops);
  const charts: ChartDraft[] = [];
  const rows: TableRowDraft[] = [];
  for (const def of defs) {
    const chartRows = order.filter((op) => c.has(`${def.id}|${op}`)).map((op) => ({ x: op, xLabel: op, values: c.values(`${def.id}|${op}`) }));
    for (const r of chartRows) rows.push({ key: `fsmeta|${def.id}|${r.x}`, metric: def.title, dims: String(r.x), unit: def.show.unit, better: def.better, values: r.values });
    if (CHARTED.has(def.id) && chartRows.length) {
      charts.push({ id: `fsmeta-${def.id}`, title: def.title, kind: "bar", xKind: "category", xLabel: "step", yUnit: def.show.unit, seriesKeys: seriesKeysIn(chartRows, keys), rows: chartRows });
    }
  }
  const notes = [
    "Each step runs once over all files: create (open with O_CREAT), stat, delete (unlink). Latencies in µs (fio reports ns).",
    "stat follows create at once, so it is served from the inode and dentry caches: it measures lookups in memory, not disk reads.",
  ];
  if (layouts.size > 1) notes.push(`The runs differ in layout (${[...layouts].join("; ")}): rates depend on directory size and on parallel workers.`);
  return { title: "File-system metadata: create, stat and delete", charts, table: { caption: "Metadata figures, median of the series' runs", rows }, notes, logY: true };
}

export const fsmetaView: ProbeView = { runCharts, compareSection };
