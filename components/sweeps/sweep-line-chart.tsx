"use client";

import { CartesianGrid, Legend, Line, LineChart, ReferenceDot, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import type { DotItemDotProps } from "recharts/types/util/types";
import { flagKey, logTicks, type ChartRow } from "./sweep-chart-data";
import styles from "./sweeps.module.css";

export interface LineSpec {
  key: string;
  name: string;
  color: string;
  dash?: string;
}

export interface ChartMark {
  qd: number;
  value: number;
  color: string;
  label?: string;
}

/** A filled dot for a point that counts; a hollow one for a point the run checks flagged. */
function PointDot({ cx, cy, payload, color, dataKey }: DotItemDotProps & { color: string; dataKey: string }) {
  if (typeof cx !== "number" || typeof cy !== "number") return null;
  const row = payload as ChartRow;
  if (row[dataKey] === null || row[dataKey] === undefined) return null;
  const isFlagged = row[flagKey(dataKey)] === 1;
  return <circle className="sweep-dot" data-flagged={isFlagged ? "true" : "false"} cx={cx} cy={cy} r={isFlagged ? 4 : 3.5} fill={isFlagged ? "var(--bg)" : color} stroke={color} strokeWidth={1.5} />;
}

/**
 * One fio-plot chart: a measure against queue depth on a log2-spaced axis (the grid's depths as
 * ticks), a line with dots per series, saturation marks. `logY` puts the value on a log axis
 * (latency: p50 and p99.9 of one point can be three decades apart). The figures are in the
 * hidden summary and the points table; the drawing itself is aria-hidden.
 */
export function SweepLineChart({
  testId,
  title,
  caption,
  summary,
  rows,
  lines,
  yLabel,
  fmt,
  logY = false,
  marks = [],
  saturationQd = null,
}: {
  testId: string;
  title: string;
  caption: string;
  summary: string;
  rows: ChartRow[];
  lines: LineSpec[];
  yLabel: string;
  fmt: (v: number | null) => string;
  logY?: boolean;
  marks?: ChartMark[];
  saturationQd?: number | null;
}) {
  const qds = rows.map((r) => r.qd);
  const values = rows.flatMap((r) => lines.map((l) => r[l.key]).filter((v): v is number => typeof v === "number"));
  const yTicks = logY ? logTicks(values) : undefined;
  const empty = values.length === 0;
  return (
    <figure className="panel" data-testid={testId} style={{ margin: "1rem 0", minWidth: 0 }}>
      <figcaption style={{ fontWeight: 600, marginBottom: 8 }}>{title}</figcaption>
      <p className="visually-hidden">{summary}</p>
      {empty ? (
        <div className="empty">No finished point yet.</div>
      ) : (
        <div aria-hidden="true">
          <ResponsiveContainer width="100%" height={280}>
            <LineChart data={rows} margin={{ top: 5, right: 12, bottom: 18, left: 0 }}>
              <CartesianGrid stroke="var(--border)" />
              <XAxis
                dataKey="qd"
                type="number"
                scale={qds.length > 1 ? "log" : "auto"}
                domain={["dataMin", "dataMax"]}
                ticks={qds}
                stroke="var(--muted)"
                label={{ value: "queue depth (iodepth)", position: "insideBottom", offset: -10, fill: "var(--muted)" }}
              />
              <YAxis
                stroke="var(--muted)"
                scale={logY ? "log" : "auto"}
                domain={logY && yTicks && yTicks.length > 0 ? [yTicks[0]!, yTicks[yTicks.length - 1]!] : [0, "auto"]}
                ticks={yTicks}
                allowDataOverflow={logY}
                tickFormatter={(v: number) => fmt(v)}
                width={64}
                label={{ value: yLabel, angle: -90, position: "insideLeft", fill: "var(--muted)", dy: 40 }}
              />
              <Tooltip formatter={(v) => fmt(Number(v))} labelFormatter={(qd) => `QD ${String(qd)}`} contentStyle={{ background: "var(--panel)", border: "1px solid var(--border)" }} />
              <Legend verticalAlign="top" />
              {saturationQd !== null ? <ReferenceLine x={saturationQd} stroke="var(--danger)" strokeDasharray="4 3" label={{ value: "saturation", fill: "var(--danger)", fontSize: 11, position: "top" }} /> : null}
              {lines.map((l) => (
                <Line key={l.key} dataKey={l.key} name={l.name} stroke={l.color} strokeDasharray={l.dash} dot={(props: DotItemDotProps) => <PointDot key={`${l.key}-${String(props.index)}`} {...props} color={l.color} dataKey={l.key} />} isAnimationActive={false} connectNulls />
              ))}
              {marks.map((m) => (
                <ReferenceDot key={`${m.qd}-${m.color}-${m.value}`} x={m.qd} y={m.value} r={7} fill="none" stroke={m.color} strokeWidth={2} ifOverflow="extendDomain" />
              ))}
            </LineChart>
          </ResponsiveContainer>
        </div>
      )}
      <p className={`muted small ${styles.caption}`} data-testid="fio-version-caption">
        {caption}
        {rows.some((r) => lines.some((l) => r[flagKey(l.key)] === 1)) ? " · hollow dots: flagged by the run checks, not counted for the saturation point" : ""}
      </p>
    </figure>
  );
}
