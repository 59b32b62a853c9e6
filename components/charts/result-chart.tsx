"use client";

import { Bar, BarChart, CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { useEffect, useRef, useState } from "react";
import type { RunChartSeries } from "@/probes/core/view";
import { tickText, xAxisLayout } from "./chart-layout";
import { seriesColor } from "./palette";
import { valueAxis } from "./value-axis";

export type ChartSeries = RunChartSeries;

const fmt = (v: number) => v.toLocaleString("en-US", { maximumFractionDigits: 1 });

/** Lines (numeric or time x) or grouped bars (category x) from plain series; no database types here. */
export function ResultChart({
  title,
  kind,
  series,
  xLabel,
  yLabel,
  logX,
  xTicks,
  logY,
  source,
}: {
  title: string;
  kind: "line" | "bar";
  series: ChartSeries[];
  xLabel: string;
  yLabel: string;
  logX?: boolean;
  xTicks?: { value: number; label: string }[];
  logY?: boolean;
  source?: string;
}) {
  // A log axis cannot place 0: such points are left out rather than drawn at the bottom edge.
  const drawn = logY ? series.map((s) => ({ ...s, points: s.points.filter((p) => p.y > 0) })) : series;
  const y = valueAxis(logY, drawn.flatMap((s) => s.points.map((p) => p.y)));
  const xs = [...new Set(drawn.flatMap((s) => s.points.map((p) => p.x)))];
  if (kind === "line" && xs.every((x) => typeof x === "number")) (xs as number[]).sort((a, b) => a - b);
  const rows = xs.map((x) => {
    const row: Record<string, number | string> = { x };
    for (const s of drawn) {
      const p = s.points.find((q) => q.x === x);
      if (p) row[s.name] = p.y;
    }
    return row;
  });
  // Names of x values on a transformed axis: the series' own point labels, then the ticks'.
  const xNames = new Map<number | string, string>([...(xTicks ?? []).map((t) => [t.value, t.label] as const), ...series.flatMap((s) => s.points.flatMap((p) => (p.label ? [[p.x, p.label] as const] : [])))]);
  const numericX = logX || xTicks !== undefined;
  // Explicit ticks span the axis (a time axis from 0 s), data beyond them still shows.
  const numbers = xs.filter((x): x is number => typeof x === "number");
  const tickValues = (xTicks ?? []).map((t) => t.value);
  const domain: [number, number] | undefined = xTicks && numbers.length > 0 ? [Math.min(...tickValues, ...numbers), Math.max(...tickValues, ...numbers)] : undefined;
  // The chart's width decides the x axis layout (a phone angles and thins labels).
  const figure = useRef<HTMLElement>(null);
  const [width, setWidth] = useState(0);
  useEffect(() => {
    const el = figure.current;
    if (!el) return;
    const observer = new ResizeObserver(() => setWidth(el.clientWidth));
    observer.observe(el);
    return () => observer.disconnect();
  }, []);
  const layout = xTicks ? xAxisLayout(width, xTicks.map((t) => t.label), true) : xAxisLayout(width, xs.map((x) => xNames.get(x) ?? String(x)));
  const xLabelProp = layout.titlesBelow ? undefined : { value: xLabel, position: "insideBottom" as const, offset: -10, fill: "var(--muted)" };
  const yLabelProp = layout.titlesBelow ? undefined : { value: yLabel, angle: -90, position: "insideLeft" as const, fill: "var(--muted)" };
  const categoryTicks = { angle: layout.angle, textAnchor: layout.angle ? ("end" as const) : ("middle" as const), fontSize: layout.angle ? 11 : undefined };
  const margin = { top: 5, right: 20, bottom: layout.titlesBelow ? 5 : 20, left: layout.titlesBelow ? 0 : 20 };
  const summary = `${title}: ${series.length} series over ${xs.length} ${xLabel} values${y.scale === "log" ? ", logarithmic value axis" : ""}${source ? `, from ${source}` : ""}`;
  return (
    <figure ref={figure} className="panel" data-testid="result-chart" data-narrow={layout.titlesBelow ? "1" : "0"} role="img" aria-label={summary} style={{ margin: "1rem 0" }}>
      <figcaption style={{ fontWeight: 600, marginBottom: 8 }}>
        {title}
        {source ? (
          <span className="muted small" data-testid="chart-source" style={{ fontWeight: 400, marginLeft: 8 }}>
            {source}
          </span>
        ) : null}
        {y.scale === "log" ? (
          <span className="muted small" data-testid="chart-log-axis" style={{ fontWeight: 400, marginLeft: 8 }}>
            log scale
          </span>
        ) : null}
      </figcaption>
      <ResponsiveContainer width="100%" height={300}>
        {kind === "line" ? (
          <LineChart data={rows} margin={margin}>
            <CartesianGrid stroke="var(--border)" />
            <XAxis
              dataKey="x"
              scale={logX ? "log" : "auto"}
              type={numericX ? "number" : "category"}
              domain={domain ?? (numericX ? ["dataMin", "dataMax"] : undefined)}
              ticks={xTicks ? xTicks.map((t) => t.value) : logX ? (xs as number[]) : undefined}
              tickFormatter={xTicks ? (v: number) => tickText(xNames.get(v) ?? fmt(v), layout.maxLabelChars) : numericX ? undefined : (v: string) => tickText(String(v), layout.maxLabelChars)}
              interval={layout.interval > 0 ? layout.interval : undefined}
              // On a narrow chart the first label would touch the value axis' lowest one.
              padding={layout.titlesBelow && numericX ? { left: 12, right: 8 } : undefined}
              angle={layout.angle}
              textAnchor={categoryTicks.textAnchor}
              height={layout.height}
              stroke="var(--muted)" label={xLabelProp} />
            <YAxis
              stroke="var(--muted)"
              tickFormatter={fmt}
              width={90}
              scale={y.scale}
              ticks={y.ticks}
              domain={y.domain}
              allowDataOverflow={y.scale === "log"}
              label={yLabelProp}
            />
            <Tooltip formatter={(v) => fmt(Number(v))} labelFormatter={(x) => xNames.get(x as number | string) ?? String(x)} contentStyle={{ background: "var(--panel)", border: "1px solid var(--border)" }} />
            <Legend verticalAlign="top" />
            {drawn.map((s, i) => (
              <Line key={s.name} dataKey={s.name} stroke={seriesColor(i)} dot={false} isAnimationActive={false} connectNulls />
            ))}
          </LineChart>
        ) : (
          <BarChart data={rows} margin={margin}>
            <CartesianGrid stroke="var(--border)" />
            <XAxis
              dataKey="x"
              stroke="var(--muted)"
              interval={layout.interval}
              angle={layout.angle}
              textAnchor={categoryTicks.textAnchor}
              height={layout.height}
              tick={{ fontSize: categoryTicks.fontSize }}
              tickFormatter={(v: string) => tickText(String(v), layout.maxLabelChars)}
              label={xLabelProp}
            />
            <YAxis stroke="var(--muted)" tickFormatter={fmt} width={90} label={yLabelProp} />
            <Tooltip formatter={(v) => fmt(Number(v))} contentStyle={{ background: "var(--panel)", border: "1px solid var(--border)" }} />
            <Legend verticalAlign="top" />
            {series.map((s, i) => (
              <Bar key={s.name} dataKey={s.name} fill={seriesColor(i)} isAnimationActive={false} />
            ))}
          </BarChart>
        )}
      </ResponsiveContainer>
      {layout.titlesBelow ? (
        // On a narrow chart the axis titles would be cut inside the SVG: they read here in full.
        <p className="muted small" data-testid="chart-axis-titles" style={{ margin: "0.25rem 0 0" }}>
          x: {xLabel}
          {yLabel ? ` · y: ${yLabel}` : ""}
        </p>
      ) : null}
    </figure>
  );
}
