// How a probe's results are drawn, as plain data (no React, no database): charts of one run for
// its run page, and a section of a comparison. The probe decides what to draw and in which unit;
// lib/compare folds repeats (median, min–max, CV), computes Δ % and labels; components render.
import type { Better } from "./metrics";
import type { NormalisedResult } from "./types";

// ------------------------------------------------------------------------- one run

export interface RunChartSeries {
  name: string;
  /** `label`: how the tooltip names x when a transformed axis would show a bare number. */
  points: { x: number | string; y: number; label?: string }[];
}

/** One chart of a single run's result (drawn by components/charts/result-chart.tsx). */
export interface RunChart {
  title: string;
  kind: "line" | "bar";
  xLabel: string;
  /** The display unit of the values (see probes/core/metrics.ts). */
  yLabel: string;
  logX?: boolean;
  /**
   * A numeric x axis with these ticks only, labelled as given: for an axis the probe transformed
   * (fio's percentiles drawn by their nines, -log10(1 - p/100), ticks "p90", "p99", "p99.9").
   */
  xTicks?: { value: number; label: string }[];
  /**
   * A logarithmic value axis (latency percentiles: p1–p99 stay readable beside a p99.999 a
   * hundred times larger); values ≤ 0 are left out of such a chart.
   */
  logY?: boolean;
  /** The tool and version the figures come from ("fio-3.33"), shown with the chart. */
  source?: string;
  series: RunChartSeries[];
}

// ------------------------------------------------------------------------- comparison

/** What a comparison knows of one run that a probe's section may read. */
export interface ViewRun {
  params: Record<string, unknown>;
  result: NormalisedResult | null;
  /** The block device of the run's target when the profile recorded it (a sampler picks its disk rows by it). */
  targetDevice: string | null;
}

/** A line or bar group of a comparison: one run, or the runs of one configuration folded. */
export interface ViewSeries {
  /** Record key of this series in `values` ("s0", "s1", …). */
  key: string;
  /** The series' label (for notes such as "which disk each series was read from"). */
  label: string;
  runs: readonly ViewRun[];
}

/** Raw values per series key at one point; lib/compare summarises them (median, min–max, CV). */
export type SeriesValues = Record<string, number[]>;

export type XKind = "log2" | "linear" | "category";

export interface ChartRowDraft {
  x: number | string;
  xLabel: string;
  values: SeriesValues;
}

export interface ChartDraft {
  id: string;
  title: string;
  note?: string;
  kind: "line" | "bar";
  xKind: XKind;
  xLabel: string;
  /** Display unit of the values. */
  yUnit: string;
  xTicks?: number[];
  /** Series keys drawn in this chart, in legend order. */
  seriesKeys: string[];
  rows: ChartRowDraft[];
  /** The group (e.g. a file size) this chart belongs to, for the group selector. */
  group?: string;
}

export interface TableRowDraft {
  key: string;
  metric: string;
  /** The dims as text (empty when none). */
  dims: string;
  /** Display unit of the values. */
  unit: string;
  better: Better;
  group?: string;
  /** Follows from another row (a size and an elapsed time): not counted in repeat-variation warnings. */
  secondary?: boolean;
  values: SeriesValues;
}

/** A probe's section of a comparison before repeats are summarised. */
export interface SectionDraft {
  title: string;
  charts: ChartDraft[];
  table: { caption: string; rows: TableRowDraft[] };
  /** Groups to choose from (charts and rows carry `group`), e.g. file sizes. */
  groups?: { id: string; label: string }[];
  defaultGroup?: string;
  notes: string[];
  /** Whether a log-scale y axis makes sense (false for time series with zeros). */
  logY: boolean;
}

/** Accumulates raw values per point and series key; a probe's section reads them back per point. */
export class ValueCollector {
  private points = new Map<string, Map<string, number[]>>();
  add(point: string, series: string, value: number): void {
    if (!Number.isFinite(value)) return;
    let bySeries = this.points.get(point);
    if (!bySeries) this.points.set(point, (bySeries = new Map()));
    const list = bySeries.get(series);
    if (list) list.push(value);
    else bySeries.set(series, [value]);
  }
  values(point: string): SeriesValues {
    return Object.fromEntries(this.points.get(point) ?? []);
  }
  has(point: string): boolean {
    return this.points.has(point);
  }
}

/** The keys of `order` that have a value in some row, in that order (a chart's legend). */
export function seriesKeysIn(rows: readonly { values: SeriesValues }[], order: readonly string[]): string[] {
  const present = new Set(rows.flatMap((r) => Object.keys(r.values)));
  return order.filter((k) => present.has(k));
}

/**
 * How a probe measures one of several "sides" per run (e.g. write or read): runs of one setup that
 * differ only by side are drawn as one series, and the side is not a setup difference.
 */
export interface SidePairing {
  /** The side a run measured, from its parameters; null when unknown (imported output). */
  sideOf(params: Record<string, unknown>): string | null;
  /** The sides in chart order, e.g. ["write", "read"]. */
  sides: readonly string[];
}

// ------------------------------------------------------------------------- timeline

export interface TimelinePoint {
  /** "12 s" for telemetry, the sample's clock time for a sampled probe. */
  label: string;
  /** Series named as lib/diagnosis/timeline.ts lists them ("cpu.iowait", "device.util", …). */
  values: Record<string, number>;
}

/** What the machine did over time, the shape diagnosis rules read. */
export interface Timeline {
  points: TimelinePoint[];
}

/**
 * A probe's own progress over a run's elapsed time (from its progress output, the logs it
 * writes, or its samples), drawn above the telemetry on the run's timeline.
 */
export interface ProgressSeries {
  key: string;
  label: string;
  /** Display unit, e.g. "MiB/s", "IOPS", "µs". */
  unit: string;
  /** t: seconds since the probe started. */
  points: { t: number; v: number }[];
}

/** How a probe's results are drawn. */
export interface ProbeView {
  /** Charts of one run's result, values in display units. */
  runCharts(result: NormalisedResult): RunChart[];
  /** This probe's section of a comparison, from the series of its runs, values in display units. */
  compareSection(series: readonly ViewSeries[]): SectionDraft;
  /** Present when one run measures one side of a setup (a write or a read). */
  sides?: SidePairing;
  /**
   * Parameters that say how a run was driven rather than what was measured (a write-or-read mode,
   * fdatasync): left out of "Probe parameters" in what differs and of the side-pairing key.
   */
  notSetupParams?: readonly string[];
  /** The probe's progress over elapsed time, from its stored result and raw log. */
  progress?(result: NormalisedResult | null, log: string): ProgressSeries[];
  /** A probe that samples the system over time gives its result as a diagnosis timeline. */
  timeline?(result: NormalisedResult): Timeline;
  /** Extra facts for "what differs", after the common ones (e.g. fdatasync of writes). */
  differsFacts?: readonly { id: string; label: string; value(params: Record<string, unknown>): string | null }[];
}

/** Items by key, in first-seen order of the keys. */
export function groupBy<T>(items: readonly T[], key: (t: T) => string): Map<string, T[]> {
  const m = new Map<string, T[]>();
  for (const it of items) {
    const k = key(it);
    const list = m.get(k);
    if (list) list.push(it);
    else m.set(k, [it]);
  }
  return m;
}
