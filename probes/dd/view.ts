// How dd results are drawn: one bar per direction (write, read, or unknown for imports).
// Throughput is shown in MiB/s like every probe's, although dd itself prints MB/s (10⁶).
import { displayUnit, type Better } from "../core/metrics";
import type { NormalisedResult } from "../core/types";
import { seriesKeysIn, ValueCollector, type ProbeView, type RunChart, type SectionDraft, type TableRowDraft, type ViewSeries } from "../core/view";
import { ddDirection, type DdDirection } from "./direction";
import { ddProgress } from "./progress-series";

const DIRECTIONS: readonly DdDirection[] = ["write", "read", "unknown direction"];
const THROUGHPUT = displayUnit("B/s");
const SIZE = displayUnit("B");

function runCharts(result: NormalisedResult): RunChart[] {
  const all = result.measurements.filter((m) => m.metric === "throughput");
  const t = all[0];
  if (!t) return [];
  const d = displayUnit(t.unit);
  // An imported paste kept as one repeated series (probes/paste.ts): one bar per run.
  if (all.length > 1 && all.every((m) => typeof m.dims.run === "number")) {
    const points = all.map((m) => ({ x: `run ${m.dims.run}`, y: m.value * d.scale }));
    return [{ title: "dd throughput per run", kind: "bar", xLabel: "run", yLabel: d.unit, series: [{ name: d.unit, points }] }];
  }
  return [{ title: "dd throughput", kind: "bar", xLabel: "", yLabel: d.unit, series: [{ name: d.unit, points: [{ x: "throughput", y: t.value * d.scale }] }] }];
}

function compareSection(series: readonly ViewSeries[]): SectionDraft {
  const keys = series.map((s) => s.key);
  const c = new ValueCollector();
  const seen = new Set<DdDirection>();
  for (const s of series) {
    for (const run of s.runs) {
      const dir = ddDirection(run.params);
      for (const m of run.result?.measurements ?? []) {
        if (m.metric === "throughput" || m.metric === "bytes") c.add(`${m.metric}|${dir}`, s.key, m.value * displayUnit(m.unit).scale);
        else if (m.metric === "seconds") c.add(`seconds|${dir}`, s.key, m.value);
        else continue;
        seen.add(dir);
      }
    }
  }
  const dirs = DIRECTIONS.filter((d) => seen.has(d));
  const chartRows = dirs.filter((d) => c.has(`throughput|${d}`)).map((d) => ({ x: d, xLabel: d, values: c.values(`throughput|${d}`) }));
  const rows: TableRowDraft[] = [];
  for (const d of dirs) {
    const metrics: [string, string, string, Better][] = [
      ["throughput", "throughput", THROUGHPUT.unit, "higher"],
      ["bytes", "size", SIZE.unit, null],
      ["seconds", "elapsed", "s", null],
    ];
    for (const [id, name, unit, better] of metrics) {
      if (!c.has(`${id}|${d}`)) continue;
      rows.push({ key: `dd|${id}|${d}`, metric: name, dims: d, unit, better, values: c.values(`${id}|${d}`), ...(id === "throughput" ? {} : { secondary: true }) });
    }
  }
  const notes = [`Throughput in ${THROUGHPUT.unit} (2²⁰ bytes per second); dd itself prints MB/s (10⁶ bytes per second).`];
  if (seen.has("unknown direction")) {
    notes.push("Imported dd output does not say whether dd wrote or read (its parameters were not recorded): those runs are under “unknown direction”.");
  }
  return {
    title: "dd: sequential throughput",
    charts: chartRows.length
      ? [{ id: "dd-throughput", title: "throughput by direction", kind: "bar", xKind: "category", xLabel: "direction", yUnit: THROUGHPUT.unit, seriesKeys: seriesKeysIn(chartRows, keys), rows: chartRows }]
      : [],
    table: { caption: "dd figures, median of the series' runs", rows },
    notes,
    logY: true,
  };
}

/** dd parameters that only say which way the data went (or a write detail): not part of a dd "setup". */
const NOT_SETUP = ["mode", "fdatasync", "keepFile", "preset"] as const;

export const ddView: ProbeView = {
  runCharts,
  progress: ddProgress,
  compareSection,
  sides: {
    sideOf: (params) => {
      const d = ddDirection(params);
      return d === "unknown direction" ? null : d;
    },
    sides: ["write", "read"],
  },
  notSetupParams: NOT_SETUP,
  differsFacts: [
    {
      id: "ddSync",
      label: "dd fdatasync (writes)",
      // fdatasync only applies to writes.
      value: (params) => (params.mode === "write" && typeof params.fdatasync === "boolean" ? String(params.fdatasync) : null),
    },
  ],
};
