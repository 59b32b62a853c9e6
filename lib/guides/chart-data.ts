/**
 * Turns a dataset (long format: one row per x / series / facet cell) into what the chart
 * component draws: one panel per facet value, each a list of records keyed by x with one numeric
 * field per series. Pure, so it runs in the browser and in unit tests.
 */
import type { Cell, Dataset } from "@/content/schema";
import { formatNumber } from "./format";

export type XKind = "log2" | "linear" | "category";

export interface ChartSeries {
  /** Record field holding this series' values. Synthetic (s0, s1, …) because Recharts reads
   *  dotted data keys as paths and series names such as "passive + SELECT" are free text. */
  key: string;
  name: string;
}

export interface ChartRecord {
  /** Position on the x axis: the category label, the number, or log2 of the number. */
  x: string | number;
  /** The x value as published, for tooltips. */
  xLabel: string;
  [seriesKey: string]: string | number | undefined;
}

export interface ChartPanel {
  /** The facet value, or null when the dataset is not faceted. */
  facet: string | null;
  records: ChartRecord[];
  /** The unit of this panel's values: the model's, or the unit column's values in this panel. */
  yUnit: string | null;
  yAxisLabel: string;
  /** Shaded x ranges (positions on the x axis, like ChartRecord.x) with their labels. */
  annotations: Array<{ from: string | number; to: string | number; label: string }>;
  /** Smallest and largest plotted value with where they occur, for the text description. */
  min: { value: number; series: string; x: string } | null;
  max: { value: number; series: string; x: string } | null;
}

export interface ChartModel {
  type: "line" | "bar";
  xKind: XKind;
  series: ChartSeries[];
  /** Label of the series column ("File system"), null when there is one series. */
  seriesLabel: string | null;
  /** Label of the facet column ("Operation (test metric)"), null when not faceted. */
  facetLabel: string | null;
  panels: ChartPanel[];
  /** Tick positions on a numeric x axis: every distinct x (log2 positions on a log2 axis). */
  xTicks: number[] | null;
  xAxisLabel: string;
  yAxisLabel: string;
  xUnit: string | null;
  yUnit: string | null;
  /** "log10" draws the value axis logarithmically with ticks at powers of ten. */
  yScale: "linear" | "log10";
  /** Powers of ten spanning every plotted value, for a log10 axis; null on a linear one. */
  yLogTicks: number[] | null;
  /** Every facet value, in dataset order, even when only one panel is drawn (for a facet picker). */
  facets: string[];
}

function cellText(v: Cell | undefined): string {
  if (v === null || v === undefined) return "";
  return typeof v === "number" ? formatNumber(v) : String(v);
}

function columnUnit(dataset: Dataset, key: string): string | null {
  return dataset.columns.find((c) => c.key === key)?.unit ?? dataset.units[key] ?? null;
}

function columnLabel(dataset: Dataset, key: string): string {
  return dataset.columns.find((c) => c.key === key)?.label ?? key;
}

/** "Record size (KB)" stays; "Throughput" + "KB/s" → "Throughput (KB/s)". */
export function labelWithUnit(label: string, unit: string | null): string {
  if (!unit || label.includes(unit)) return label;
  return `${label} (${unit})`;
}

function xKindOf(dataset: Dataset): XKind {
  const { xScale, x } = dataset.chart;
  if (xScale === "log2" || xScale === "linear" || xScale === "category") return xScale;
  // Unspecified: numeric x values read as a linear axis, anything else as categories.
  return dataset.rows.every((r) => typeof r[x] === "number") ? "linear" : "category";
}

function distinct<T>(values: T[]): T[] {
  return [...new Set(values)];
}

/** The x value formatted for ticks and tooltips; on a log2 axis `position` is log2(x). */
export function formatXPosition(position: number, kind: XKind): string {
  return formatNumber(kind === "log2" ? Math.round(2 ** position * 1000) / 1000 : position);
}

export function buildChartModel(dataset: Dataset, onlyFacet?: string): ChartModel {
  const { chart } = dataset;
  const xKind = xKindOf(dataset);
  const seriesKey = chart.series;
  const facetKey = chart.facet;

  const seriesNames = seriesKey ? distinct(dataset.rows.map((r) => cellText(r[seriesKey]))) : [columnLabel(dataset, chart.y)];
  const series: ChartSeries[] = seriesNames.map((name, i) => ({ key: `s${i}`, name }));
  const seriesByName = new Map(series.map((s) => [s.name, s]));

  let facets: Array<string | null> = facetKey ? distinct(dataset.rows.map((r) => cellText(r[facetKey]))) : [null];
  if (facetKey && onlyFacet !== undefined && facets.includes(onlyFacet)) facets = [onlyFacet];

  const numericX = xKind !== "category";
  const position = (v: Cell | undefined): string | number | null => {
    if (!numericX) return cellText(v);
    if (typeof v !== "number") return null;
    if (xKind === "log2") return v > 0 ? Math.log2(v) : null;
    return v;
  };

  const xUnit = columnUnit(dataset, chart.x);
  const yUnit = columnUnit(dataset, chart.y);
  const yAxisLabel = chart.yLabel ?? labelWithUnit(columnLabel(dataset, chart.y), yUnit);
  const unitKey = chart.unitColumn;

  const panels: ChartPanel[] = facets.map((facet) => {
    const rows = facetKey === undefined ? dataset.rows : dataset.rows.filter((r) => cellText(r[facetKey]) === facet);
    // Mixed-unit datasets: the axis names the unit(s) of the rows this panel draws.
    const rowUnits = unitKey ? distinct(rows.filter((r) => typeof r[chart.y] === "number").map((r) => cellText(r[unitKey])).filter(Boolean)) : [];
    const panelUnit = rowUnits.length > 0 ? rowUnits.join(", ") : yUnit;
    // "total write time (s)"; a facet that already carries its unit ("Host memory (GB)") gives just the unit.
    const panelLabel = rowUnits.length > 0 ? (facet && !facet.includes("(") ? labelWithUnit(facet, panelUnit) : panelUnit!) : yAxisLabel;
    const annotations = (chart.annotations ?? [])
      .filter((a) => a.facet === undefined || a.facet === facet)
      .flatMap((a) => {
        const from = position(a.from);
        const to = position(a.to ?? a.from);
        return from === null || to === null ? [] : [{ from, to, label: a.label }];
      });
    const byX = new Map<string | number, ChartRecord>();
    let min: ChartPanel["min"] = null;
    let max: ChartPanel["max"] = null;
    for (const row of rows) {
      const x = position(row[chart.x]);
      const y = row[chart.y];
      if (x === null) continue;
      let record = byX.get(x);
      if (!record) {
        record = { x, xLabel: cellText(row[chart.x]) };
        byX.set(x, record);
      }
      // Null cells stay out of the record: no bar, and a gap in the line.
      if (typeof y !== "number") continue;
      const s = seriesKey ? seriesByName.get(cellText(row[seriesKey])) : series[0];
      // First value wins if a source ever lists one cell twice.
      if (!s || record[s.key] !== undefined) continue;
      record[s.key] = y;
      if (!min || y < min.value) min = { value: y, series: s.name, x: record.xLabel };
      if (!max || y > max.value) max = { value: y, series: s.name, x: record.xLabel };
    }
    const records = [...byX.values()];
    if (numericX) records.sort((a, b) => (a.x as number) - (b.x as number));
    return { facet, records, yUnit: panelUnit, yAxisLabel: panelLabel, annotations, min, max };
  });

  const xTicks = numericX
    ? distinct(panels.flatMap((p) => p.records.map((r) => r.x as number))).sort((a, b) => a - b)
    : null;

  const yScale = chart.yScale ?? "linear";
  let yLogTicks: number[] | null = null;
  if (yScale === "log10") {
    const values = panels.flatMap((p) => [p.min?.value, p.max?.value]).filter((v): v is number => typeof v === "number" && v > 0);
    const lo = Math.floor(Math.log10(Math.min(...values)));
    const hi = Math.ceil(Math.log10(Math.max(...values)));
    yLogTicks = [];
    for (let e = lo; e <= hi; e++) yLogTicks.push(10 ** e);
  }
  return {
    type: chart.type,
    xKind,
    series,
    seriesLabel: seriesKey ? columnLabel(dataset, seriesKey) : null,
    facetLabel: facetKey ? columnLabel(dataset, facetKey) : null,
    panels,
    xTicks,
    xAxisLabel: chart.xLabel ?? labelWithUnit(columnLabel(dataset, chart.x), xUnit),
    yAxisLabel,
    xUnit,
    yUnit,
    yScale,
    yLogTicks,
    facets: facetKey ? distinct(dataset.rows.map((r) => cellText(r[facetKey]))) : [],
  };
}

/** A sentence describing one panel for screen readers (the chart itself is an image to them). */
export function describePanel(model: ChartModel, panel: ChartPanel, title: string): string {
  const kind = model.type === "line" ? "Line chart" : "Bar chart";
  const parts = [`${kind}: ${title}`];
  if (panel.facet !== null && model.facetLabel) parts.push(`${model.facetLabel}: ${panel.facet}`);
  parts.push(`${panel.yAxisLabel}${model.yScale === "log10" ? " (log scale)" : ""} by ${model.xAxisLabel}${model.xKind === "log2" ? " (log scale)" : ""}`);
  if (model.seriesLabel) parts.push(`one ${model.type === "line" ? "line" : "bar"} per ${model.seriesLabel.toLowerCase()}: ${model.series.map((s) => s.name).join(", ")}`);
  const unit = panel.yUnit ? ` ${panel.yUnit}` : "";
  const where = (p: NonNullable<ChartPanel["max"]>) =>
    [model.seriesLabel ? p.series : null, p.x].filter(Boolean).join(" at ");
  if (panel.max && panel.min && panel.max.value !== panel.min.value) {
    parts.push(
      `highest ${formatNumber(panel.max.value)}${unit} (${where(panel.max)}), lowest ${formatNumber(panel.min.value)}${unit} (${where(panel.min)})`,
    );
  } else if (panel.max) {
    parts.push(`value ${formatNumber(panel.max.value)}${unit}`);
  } else {
    parts.push("no values");
  }
  for (const a of panel.annotations) parts.push(`marked: ${a.label}`);
  return `${parts.join("; ")}.`;
}
