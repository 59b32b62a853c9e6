"use client";

/**
 * Draws a content/data dataset from its chart spec with Recharts: a line chart (numeric x on a
 * log2 or linear axis, or categories) or a bar chart grouped by series; faceted datasets become
 * small multiples, one panel per facet value, or just the `facet` asked for.
 *
 * Takes the dataset as plain, serialisable props; the server component that renders it filters
 * the rows it does not need.
 */
import { useId, useMemo, useState, type ReactNode } from "react";
import {
  Bar,
  BarChart,
  CartesianGrid,
  Line,
  LineChart,
  ReferenceArea,
  Tooltip,
  XAxis,
  YAxis,
  type TooltipContentProps,
} from "recharts";
import styles from "@/components/guides/dataset-chart.module.css";
import type { Dataset } from "@/content/schema";
import {
  buildChartModel,
  describePanel,
  formatXPosition,
  type ChartModel,
  type ChartPanel,
  type ChartRecord,
} from "@/lib/guides/chart-data";
import { formatNumber } from "@/lib/guides/format";
import { seriesColor } from "./palette";

export interface DatasetChartProps {
  dataset: Dataset;
  /** Draw only this value of the dataset's facet column. */
  facet?: string;
  /** Draw one facet at a time with a picker for the others, starting at `facet` (or the first). */
  selectable?: boolean;
}

/** Lines also differ by dash so colour is not the only cue. */
const DASHES = ["", "7 4", "2 3", "10 3 2 3"];

const colorAt = seriesColor;
const dashAt = (i: number) => DASHES[i % DASHES.length]!;

/** Category labels longer than this switch a bar chart to horizontal bars so labels stay readable. */
const LONG_CATEGORY = 14;
/** Characters per line of a category label beside a horizontal bar (fits the 150 px axis). */
const HORIZONTAL_LABEL_CHARS = 24;

/** "Operation (test metric)" → "operation (test metric)" for use mid-sentence. */
function lowerFirst(s: string): string {
  return s.charAt(0).toLowerCase() + s.slice(1);
}

/** Greedy word wrap for SVG tick labels (SVG text does not wrap by itself). */
function wrapLabel(text: string, maxChars: number): string[] {
  const lines: string[] = [];
  let line = "";
  for (const word of text.split(/\s+/).filter(Boolean)) {
    if (line && line.length + 1 + word.length > maxChars) {
      lines.push(line);
      line = word;
    } else {
      line = line ? `${line} ${word}` : word;
    }
  }
  if (line) lines.push(line);
  return lines.length > 0 ? lines : [""];
}

interface TickProps {
  x: number | string;
  y: number | string;
  payload: { value?: unknown };
}

function bottomTick(maxChars: number) {
  return function BottomTick({ x, y, payload }: TickProps) {
    const lines = wrapLabel(String(payload.value ?? ""), maxChars);
    return (
      <text x={Number(x)} y={Number(y) + 4} textAnchor="middle" className={styles.tick}>
        {lines.map((l, i) => (
          <tspan key={i} x={Number(x)} dy={i === 0 ? "0.71em" : "1.15em"}>
            {l}
          </tspan>
        ))}
      </text>
    );
  };
}

function leftTick(maxChars: number) {
  return function LeftTick({ x, y, payload }: TickProps) {
    const lines = wrapLabel(String(payload.value ?? ""), maxChars);
    // Centre the block of lines on the tick.
    const first = 0.35 - ((lines.length - 1) * 1.15) / 2;
    return (
      <text x={Number(x) - 4} y={Number(y)} textAnchor="end" className={styles.tick}>
        {lines.map((l, i) => (
          <tspan key={i} x={Number(x) - 4} dy={`${i === 0 ? first : 1.15}em`}>
            {l}
          </tspan>
        ))}
      </text>
    );
  };
}

function ChartTooltip({ active, payload, model, panel }: TooltipContentProps & { model: ChartModel; panel: ChartPanel }) {
  if (!active || !payload || payload.length === 0) return null;
  const record = payload[0]?.payload as ChartRecord | undefined;
  const unit = panel.yUnit ? ` ${panel.yUnit}` : "";
  const heading = model.xKind === "category" ? record?.xLabel : `${model.xAxisLabel}: ${record?.xLabel ?? ""}`;
  return (
    <div className={styles.tooltip}>
      <p>{heading}</p>
      <ul>
        {payload.map((entry) => {
          const value = typeof entry.value === "number" ? `${formatNumber(entry.value)}${unit}` : "—";
          const color = entry.color ?? entry.stroke ?? entry.fill;
          return (
            <li key={String(entry.dataKey)}>
              <span className={styles.tooltipName}>
                <span className={styles.dot} style={{ background: color }} aria-hidden="true" />
                {String(entry.name ?? "")}
              </span>
              <span>{value}</span>
            </li>
          );
        })}
      </ul>
    </div>
  );
}

function Legend({ model }: { model: ChartModel }) {
  if (model.series.length < 2) return null;
  return (
    <ul className={styles.legend} aria-label={model.seriesLabel ?? "Series"}>
      {model.seriesLabel && <li className={styles.legendTitle}>{model.seriesLabel}:</li>}
      {model.series.map((s, i) => (
        <li key={s.key}>
          <svg className={styles.swatch} width="26" height="12" aria-hidden="true">
            {model.type === "line" ? (
              <line x1="1" y1="6" x2="25" y2="6" stroke={colorAt(i)} strokeWidth="2.5" strokeDasharray={dashAt(i)} />
            ) : (
              <rect x="6" y="0" width="14" height="12" rx="2" fill={colorAt(i)} />
            )}
          </svg>
          {s.name}
        </li>
      ))}
    </ul>
  );
}

/** Recharts calls a function `content` with the tooltip state; ours formats numbers and units. */
const tooltipContent = (model: ChartModel, panel: ChartPanel) => (props: TooltipContentProps) => <ChartTooltip {...props} model={model} panel={panel} />;

/** Props of the value axis: logarithmic with power-of-ten ticks, or linear with 1-2-5 ticks. */
function valueAxisProps(model: ChartModel) {
  if (model.yScale === "log10" && model.yLogTicks && model.yLogTicks.length > 1) {
    const ticks = model.yLogTicks;
    return {
      scale: "log" as const,
      domain: [ticks[0]!, ticks[ticks.length - 1]!],
      ticks,
      allowDataOverflow: true,
      tickFormatter: (v: number) => formatNumber(v),
    };
  }
  return { niceTicks: "snap125" as const, tickFormatter: (v: number) => formatNumber(v) };
}

/** Shaded x ranges the dataset marks (e.g. anomalies its caveats cite), labelled inside the plot. */
function annotationAreas(panel: ChartPanel, numeric: boolean) {
  return panel.annotations.map((a, i) => {
    // On a numeric axis a single point becomes a narrow band so it stays visible.
    const pad = numeric && a.from === a.to ? 0.25 : 0;
    const x1 = numeric ? (a.from as number) - pad : a.from;
    const x2 = numeric ? (a.to as number) + pad : a.to;
    return (
      <ReferenceArea
        key={i}
        x1={x1}
        x2={x2}
        ifOverflow="extendDomain"
        fill="var(--danger)"
        fillOpacity={0.12}
        stroke="var(--danger)"
        strokeOpacity={0.5}
        strokeDasharray="3 3"
        label={{ value: a.label, position: "insideTop", className: styles.annotation }}
      />
    );
  });
}

function LinePanel({ model, panel, height }: { model: ChartModel; panel: ChartPanel; height: number }) {
  const numeric = model.xKind !== "category";
  return (
    <LineChart
      responsive
      accessibilityLayer={false}
      style={{ width: "100%", height }}
      data={panel.records}
      margin={{ top: 8, right: 14, bottom: 4, left: 4 }}
    >
      <CartesianGrid strokeDasharray="3 3" vertical={false} />
      {numeric ? (
        <XAxis
          dataKey="x"
          type="number"
          domain={["dataMin", "dataMax"]}
          ticks={model.xTicks ?? undefined}
          interval={0}
          tickFormatter={(v: number) => formatXPosition(v, model.xKind)}
          padding={{ left: 10, right: 10 }}
        />
      ) : (
        <XAxis dataKey="x" type="category" interval={0} tick={bottomTick(12)} height={40} />
      )}
      <YAxis width="auto" {...valueAxisProps(model)} />
      <Tooltip content={tooltipContent(model, panel)} isAnimationActive={false} />
      {annotationAreas(panel, numeric)}
      {model.series.map((s, i) => (
        <Line
          key={s.key}
          dataKey={s.key}
          name={s.name}
          type="linear"
          stroke={colorAt(i)}
          strokeWidth={2}
          strokeDasharray={dashAt(i)}
          dot={{ r: 2.5, strokeDasharray: "" }}
          activeDot={{ r: 4 }}
          isAnimationActive={false}
        />
      ))}
    </LineChart>
  );
}

function BarPanel({ model, panel, horizontal }: { model: ChartModel; panel: ChartPanel; horizontal: boolean }) {
  const bars = model.series.map((s, i) => (
    <Bar key={s.key} dataKey={s.key} name={s.name} fill={colorAt(i)} isAnimationActive={false} maxBarSize={48} />
  ));
  const cursor = { fill: "var(--hover-tint)" };
  if (horizontal) {
    // Each category row must fit both its bars and its wrapped label.
    const labelLines = Math.max(1, ...panel.records.map((r) => wrapLabel(r.xLabel, HORIZONTAL_LABEL_CHARS).length));
    const rowHeight = Math.max(30, model.series.length * 13 + 16, labelLines * 14 + 10);
    return (
      <BarChart
        layout="vertical"
        responsive
        accessibilityLayer={false}
        style={{ width: "100%", height: panel.records.length * rowHeight + 40 }}
        data={panel.records}
        margin={{ top: 4, right: 18, bottom: 4, left: 4 }}
      >
        <CartesianGrid strokeDasharray="3 3" horizontal={false} />
        <XAxis type="number" {...valueAxisProps(model)} />
        <YAxis type="category" dataKey="x" width={150} interval={0} tick={leftTick(HORIZONTAL_LABEL_CHARS)} />
        <Tooltip content={tooltipContent(model, panel)} cursor={cursor} isAnimationActive={false} />
        {bars}
      </BarChart>
    );
  }
  return (
    <BarChart
      responsive
      accessibilityLayer={false}
      style={{ width: "100%", height: 260 }}
      data={panel.records}
      margin={{ top: 8, right: 8, bottom: 4, left: 4 }}
    >
      <CartesianGrid strokeDasharray="3 3" vertical={false} />
      <XAxis dataKey="x" type="category" interval={0} tick={bottomTick(LONG_CATEGORY)} height={40} />
      <YAxis width="auto" {...valueAxisProps(model)} />
      <Tooltip content={tooltipContent(model, panel)} cursor={cursor} isAnimationActive={false} />
      {bars}
    </BarChart>
  );
}

export function DatasetChart({ dataset, facet, selectable = false }: DatasetChartProps) {
  const all = useMemo(() => buildChartModel(dataset), [dataset]);
  const [chosen, setChosen] = useState<string | undefined>(selectable ? (facet ?? all.facets[0]) : facet);
  const model = useMemo(() => buildChartModel(dataset, chosen), [dataset, chosen]);
  const pickerId = useId();
  const multiple = model.panels.length > 1;
  const horizontal =
    model.type === "bar" &&
    model.panels.some((p) => p.records.some((r) => r.xLabel.length > LONG_CATEGORY));
  const categoryAxisLabel = model.xAxisLabel;
  const logNote = model.yScale === "log10" ? " (log scale)" : "";

  const panels = model.panels.map((panel) => {
    // On a horizontal bar chart the value axis is the bottom one.
    const valueAxisLabel = `${panel.yAxisLabel}${logNote}`;
    let chart: ReactNode;
    if (model.type === "line") chart = <LinePanel model={model} panel={panel} height={multiple ? 210 : 280} />;
    else chart = <BarPanel model={model} panel={panel} horizontal={horizontal} />;
    return (
      <div key={panel.facet ?? "all"} className={styles.panel}>
        {panel.facet !== null && !selectable && (
          <p className={styles.panelTitle}>
            {multiple ? panel.facet : `${model.facetLabel}: ${panel.facet}`}
          </p>
        )}
        {!horizontal && <p className={styles.axisLabel}>{valueAxisLabel}</p>}
        <div className={styles.chart} role="img" aria-label={describePanel(model, panel, dataset.title)}>
          {chart}
        </div>
        <p className={styles.xAxisLabel}>{horizontal ? valueAxisLabel : categoryAxisLabel}</p>
      </div>
    );
  });

  return (
    <figure className={styles.figure} data-testid="dataset-chart">
      {selectable && all.facets.length > 1 && (
        <p className={styles.picker}>
          <label htmlFor={pickerId}>{model.facetLabel ?? "Panel"}</label>{" "}
          <select id={pickerId} value={chosen} onChange={(e) => setChosen(e.target.value)} data-testid="dataset-chart-picker">
            {all.facets.map((f) => (
              <option key={f} value={f}>
                {f}
              </option>
            ))}
          </select>
        </p>
      )}
      <Legend model={model} />
      {multiple ? <div className={styles.grid}>{panels}</div> : panels}
      <figcaption className={styles.caption}>
        <strong>{dataset.title}</strong>
        {multiple && model.facetLabel ? ` — one panel per ${lowerFirst(model.facetLabel)}` : ""}
        {model.xKind === "log2" ? "; x axis on a log₂ scale" : ""}
        {model.yScale === "log10" ? "; value axis on a log₁₀ scale, each gridline ten times the one below" : ""}. Source: {dataset.source}
      </figcaption>
    </figure>
  );
}
