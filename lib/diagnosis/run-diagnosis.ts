// Diagnosis of a run from its own stored result, for probes that sample the machine over time
// (a sampler's run: launched, imported, or a host's history day). Pure: the run page calls it with the run it
// already read. A run's telemetry samples are the other source (timelineFromTelemetry); a shared
// findings use case can call this beside that one and merge the two lists.
import type { RunChart } from "../../probes/core/view";
import { getProbe, normalisedResultSchema } from "../../probes/catalog";
import { UNKNOWN_CONTEXT, type DiagnosisContext } from "./context";
import { diagnose, type Finding } from "./evaluate";
import type { Timeline } from "./timeline";

export interface ResultDiagnosis {
  timeline: Timeline;
  findings: Finding[];
}

/**
 * null when the run has no parsed result or its probe draws no timeline. `ctx` is what the run's
 * profile says about the host (./context.ts); without it rules read the facts as unknown.
 */
export function diagnoseResult(result: unknown, ctx: DiagnosisContext = UNKNOWN_CONTEXT): ResultDiagnosis | null {
  const parsed = normalisedResultSchema.safeParse(result);
  if (!parsed.success) return null;
  const view = getProbe(parsed.data.tool)?.view;
  if (!view?.timeline) return null;
  const timeline = view.timeline(parsed.data);
  return { timeline, findings: diagnose(timeline, ctx) };
}

/** The series the rules read, grouped by unit, drawn against the samples' labels. */
const PANELS: { title: string; yLabel: string; series: { key: string; name: string }[]; telemetryPanel?: string }[] = [
  {
    title: "CPU and device busy",
    yLabel: "%",
    series: [
      { key: "cpu.iowait", name: "iowait" },
      { key: "cpu.steal", name: "steal" },
      { key: "device.util", name: "busiest device %util" },
    ],
  },
  { title: "Device queue", yLabel: "requests", series: [{ key: "device.aquSz", name: "busiest device aqu-sz" }] },
  {
    title: "Page scanning",
    yLabel: "pages/s",
    series: [
      { key: "paging.pgscank", name: "pgscank/s (kswapd)" },
      { key: "paging.pgscand", name: "pgscand/s (direct)" },
    ],
    telemetryPanel: "scanning",
  },
  { title: "Dirty memory", yLabel: "kB", series: [{ key: "memory.dirtyKb", name: "kbdirty" }], telemetryPanel: "dirty" },
];

export function timelineCharts(timeline: Timeline): RunChart[] {
  const charts: RunChart[] = [];
  for (const panel of PANELS) {
    const series = panel.series
      .map((s) => ({
        name: s.name,
        points: timeline.points.flatMap((p) => (p.values[s.key] === undefined ? [] : [{ x: p.label, y: p.values[s.key]! }])),
      }))
      .filter((s) => s.points.length > 0);
    if (series.length > 0) charts.push({ title: panel.title, kind: "line", xLabel: "sample", yLabel: panel.yLabel, series });
  }
  return charts;
}

/**
 * The run timeline's telemetry panels (lib/timeline/panels.ts ids) this diagnosis already draws:
 * the run page leaves them out of the timeline so a column is drawn once.
 */
export function telemetryPanelsDrawnBy(timeline: Timeline): string[] {
  return PANELS.filter((p) => p.telemetryPanel && p.series.some((s) => timeline.points.some((q) => q.values[s.key] !== undefined))).map((p) => p.telemetryPanel!);
}
