// The run timeline's telemetry panels for a comparison: one chart per panel line (device write
// MiB/s, %util, iowait, …) with one line per run on seconds since its probe started, in the
// compare page's chart model so the server-rendered SVG charts draw them (ARCHITECTURE Decisions).
import type { ChartModel, SeriesInfo } from "../compare/types";
import { TELEMETRY_PANELS, type PanelSample } from "./panels";

export interface RunTelemetryInput {
  runId: string;
  label: string;
  probe: SeriesInfo["probe"];
  /** Colour position (the run's series in the comparison). */
  index: number;
  samples: readonly PanelSample[];
}

export interface TelemetryCompareModel {
  series: SeriesInfo[];
  charts: ChartModel[];
}

export function telemetryCompareModel(runs: readonly RunTelemetryInput[]): TelemetryCompareModel {
  const withSamples = runs.filter((r) => r.samples.length > 0);
  const series: SeriesInfo[] = withSamples.map((r, i) => ({
    key: `t${i}`,
    label: r.label,
    probe: r.probe,
    runIds: [r.runId],
    runLabels: [r.label],
    index: r.index,
    maxCv: null,
  }));
  const charts: ChartModel[] = [];
  for (const panel of TELEMETRY_PANELS) {
    for (const line of panel.series) {
      // Per whole second since the probe started: runs sampled a few ms apart share a row.
      const rows = new Map<number, ChartModel["rows"][number]>();
      let any = false;
      withSamples.forEach((r, i) => {
        for (const s of r.samples) {
          const v = line.value(s);
          if (v === null || !Number.isFinite(v)) continue;
          if (v !== 0) any = true;
          const t = Math.round(s.t);
          const row = rows.get(t) ?? { x: t, xLabel: `${t} s`, stats: {} };
          rows.set(t, row);
          const value = Math.round(v * 100) / 100;
          row.stats[`t${i}`] = { n: 1, median: value, min: value, max: value, cv: null };
        }
      });
      if (!any) continue;
      charts.push({
        id: `telemetry-${panel.id}-${line.key}`,
        title: `${panel.title}: ${line.label}`,
        kind: "line",
        xKind: "linear",
        xLabel: "seconds since the probe started",
        yUnit: panel.unit,
        seriesKeys: series.map((s) => s.key),
        rows: [...rows.values()].sort((a, b) => Number(a.x) - Number(b.x)),
      });
    }
  }
  return { series, charts };
}
