"use client";

import { CartesianGrid, ComposedChart, ErrorBar, Line, ReferenceArea, ReferenceLine, ResponsiveContainer, Tooltip, XAxis, YAxis, type TooltipContentProps } from "recharts";
import type { DotItemDotProps } from "recharts/types/util/types";
import { seriesColor } from "@/components/charts/palette";
import { annotationMarks, chartRows, chartSummary, chartWindows, dayUtc, fmtValue, minuteUtcOf, type ChartMark, type ChartRow, type WindowTone } from "./series-chart-data";
import type { SeriesAlert, SeriesAnnotation, SeriesPoint, WindowVerdict } from "./types";

const VALID = seriesColor(0);
const INVALID = "var(--muted)";
const NOTE = seriesColor(1);
const MARK = seriesColor(5);

/** Windows are tinted, not outlined, so the points inside stay readable; alerts in the status colours. */
const TONES: Record<WindowTone, { fill: string; opacity: number; name: string }> = {
  baseline: { fill: seriesColor(8), opacity: 0.1, name: "baseline window" },
  recent: { fill: seriesColor(2), opacity: 0.12, name: "recent window" },
  regression: { fill: seriesColor(3), opacity: 0.14, name: "open regression" },
  improvement: { fill: seriesColor(2), opacity: 0.14, name: "open improvement" },
};

/** A filled dot for a valid run, a hollow grey ring for one the checks flagged or that failed; a note adds a small flag above. */
function PointDot(props: DotItemDotProps & { hollow: boolean }) {
  const { cx, cy, payload, hollow } = props;
  const row = payload as ChartRow;
  if (typeof cx !== "number" || typeof cy !== "number" || (hollow ? row.invalid : row.valid) === null) return null;
  return (
    <g>
      <circle cx={cx} cy={cy} r={4} fill={hollow ? "none" : VALID} stroke={hollow ? INVALID : VALID} strokeWidth={1.5} />
      {row.notes ? <path d={`M${cx - 4},${cy - 14} L${cx + 4},${cy - 14} L${cx},${cy - 8} Z`} fill={NOTE} /> : null}
    </g>
  );
}

function PointTooltip({ active, payload, unit, marks }: TooltipContentProps & { unit: string; marks: ChartMark[] }) {
  const row = active ? (payload?.[0]?.payload as ChartRow | undefined) : undefined;
  if (!row) return null;
  const value = row.valid ?? row.invalid;
  const mark = marks.find((m) => m.runId === row.runId);
  return (
    <div className="chart-tooltip">
      <div>
        <strong>{value === null ? "–" : fmtValue(value)}</strong> {unit}
        {row.low !== null && row.high !== null ? (
          <span className="muted">
            {" "}
            ({fmtValue(row.low)}–{fmtValue(row.high)})
          </span>
        ) : null}
      </div>
      <div className="muted">
        {minuteUtcOf(row.t)} UTC · {row.status.toLowerCase()}
        {row.scheduled ? " · scheduled" : ""}
      </div>
      {row.valid === null ? <div style={{ color: "var(--warn)" }}>Not valid{row.flags.length > 0 ? `: ${row.flags.join("; ")}` : ""}</div> : null}
      {mark ? <div style={{ color: MARK }}>Profile changed: {mark.title}</div> : null}
      {row.notes ? <div>Note: {row.notes}</div> : null}
    </div>
  );
}

/**
 * One series' headline figure over time: valid runs joined and filled, invalid runs hollow and
 * grey, each run's own spread as a whisker, the host-profile changes as labelled vertical lines,
 * the windows of the current verdict and of open alerts shaded. The points table of the page
 * says the same in rows; the figure carries a sentence for screen readers.
 */
export function SeriesChart({
  noun,
  unit,
  points,
  annotations,
  current,
  alerts,
}: {
  noun: string;
  unit: string;
  points: SeriesPoint[];
  annotations: SeriesAnnotation[];
  current: WindowVerdict | null;
  alerts: SeriesAlert[];
}) {
  const rows = chartRows(points);
  const marks = annotationMarks(rows, annotations);
  const windows = chartWindows(rows, current, alerts);
  const summary = chartSummary({ noun, unit, rows, marks, windows });
  const ts = rows.map((r) => r.t);
  const min = Math.min(...ts);
  const max = Math.max(...ts);
  // A window of one run (or a series of one point) would be a zero-wide band: pad by a sliver of the span.
  const pad = Math.max((max - min) * 0.012, 30 * 60_000);
  const tones = [...new Set(windows.map((w) => w.tone))];
  return (
    <figure className="panel series-chart" data-testid="series-chart" style={{ margin: "1rem 0" }}>
      <figcaption style={{ fontWeight: 600, marginBottom: 8 }}>
        {noun} ({unit})
      </figcaption>
      <p className="visually-hidden" data-testid="series-chart-summary">
        {summary}
      </p>
      {rows.length === 0 ? (
        <div className="empty">No run of this series has a value yet.</div>
      ) : (
        <div aria-hidden="true">
          <ResponsiveContainer width="100%" height={300}>
            <ComposedChart data={rows} margin={{ top: 18, right: 12, bottom: 4, left: 0 }}>
              <CartesianGrid stroke="var(--border)" />
              <XAxis dataKey="t" type="number" scale="time" domain={[min - pad, max + pad]} tickFormatter={(t: number) => dayUtc(t).slice(5)} stroke="var(--muted)" minTickGap={24} />
              <YAxis stroke="var(--muted)" tickFormatter={fmtValue} width={56} />
              {windows.map((w) => (
                <ReferenceArea
                  key={w.key}
                  x1={w.from - pad}
                  x2={w.to + pad}
                  fill={TONES[w.tone].fill}
                  fillOpacity={TONES[w.tone].opacity}
                  ifOverflow="extendDomain"
                  // The verdict's windows and an alert's often cover the same runs: their names go to opposite corners.
                  label={{ value: w.label, position: w.tone === "baseline" || w.tone === "recent" ? "insideBottomLeft" : "insideBottomRight", fill: "var(--muted)", fontSize: 11 }}
                />
              ))}
              {marks.map((m) => (
                <ReferenceLine key={`${m.runId}-${m.t}`} x={m.t} stroke={MARK} strokeDasharray="4 3" label={{ value: m.label, position: "insideTopLeft", fill: MARK, fontSize: 11 }} />
              ))}
              <Tooltip content={(p: TooltipContentProps) => <PointTooltip {...p} unit={unit} marks={marks} />} />
              <Line dataKey="valid" name={noun} stroke={VALID} strokeWidth={1.5} connectNulls dot={(p: DotItemDotProps) => <PointDot key={`v-${p.index}`} {...p} hollow={false} />} activeDot={{ r: 6 }} isAnimationActive={false}>
                <ErrorBar dataKey="spread" stroke={VALID} width={4} strokeWidth={1} isAnimationActive={false} />
              </Line>
              <Line dataKey="invalid" name="not valid" stroke="none" dot={(p: DotItemDotProps) => <PointDot key={`i-${p.index}`} {...p} hollow />} activeDot={{ r: 6, fill: INVALID }} isAnimationActive={false} legendType="none">
                <ErrorBar dataKey="spread" stroke={INVALID} width={4} strokeWidth={1} isAnimationActive={false} />
              </Line>
            </ComposedChart>
          </ResponsiveContainer>
          <ul className="chart-key small muted">
            <li>
              <span className="swatch" style={{ background: VALID }} /> valid run (whisker: its own spread)
            </li>
            <li>
              <span className="swatch swatch-hollow" style={{ borderColor: INVALID }} /> not valid
            </li>
            {rows.some((r) => r.notes) ? (
              <li>
                <span className="swatch" style={{ background: NOTE }} /> run with a note
              </li>
            ) : null}
            {marks.length > 0 ? (
              <li>
                <span className="swatch swatch-line" style={{ borderColor: MARK }} /> profile change
              </li>
            ) : null}
            {tones.map((t) => (
              <li key={t}>
                <span className="swatch" style={{ background: TONES[t].fill, opacity: 0.6 }} /> {TONES[t].name}
              </li>
            ))}
          </ul>
        </div>
      )}
    </figure>
  );
}
