"use client";

// One chart of a comparison, drawn as plain SVG: lines over record size (log₂ axis) or elapsed
// time, or grouped bars; one line/bar per series; min–max whiskers where a series folds several
// runs; a tooltip on hover and on the arrow keys. Plain SVG rather than Recharts because a
// comparison draws up to 13 charts × 30 series at once: Recharts spent ~300 ms of script and
// garbage collection on that (measured with bench/compare-page.ts); this renders on the server
// and hydrates in a few milliseconds per chart.
import { memo, useEffect, useId, useMemo, useRef, useState, type KeyboardEvent, type PointerEvent } from "react";
import { formatCv, formatKiB, formatTick, formatValue } from "@/lib/compare/format";
import { CV_WARN_PERCENT } from "@/lib/compare/stats";
import { niceTicks } from "@/lib/compare/ticks";
import type { ChartModel, ChartRow, SeriesInfo, Stat } from "@/lib/compare/types";
import { seriesColor, seriesDash, seriesHollow } from "@/components/charts/palette";
import styles from "./compare.module.css";
import { Swatch } from "./swatch";

export interface CompareChartProps {
  chart: ChartModel;
  /** Series drawn (visible ones), in legend order. */
  series: SeriesInfo[];
  /** Logarithmic value axis (decades), for figures that span orders of magnitude (memory vs disk). */
  logY?: boolean;
}

const HEIGHT = 250;
/** Width before the first measurement (server render): about a grid cell on a desktop screen. */
const DEFAULT_WIDTH = 560;
const M = { top: 10, right: 16, bottom: 24, left: 50 };

function valueRange(chart: ChartModel, keys: string[]): { lo: number; hi: number; minPositive: number } {
  let lo = Infinity;
  let hi = -Infinity;
  let minPositive = Infinity;
  for (const row of chart.rows) {
    for (const k of keys) {
      const st = row.stats[k];
      if (!st) continue;
      lo = Math.min(lo, st.min);
      hi = Math.max(hi, st.max);
      if (st.min > 0) minPositive = Math.min(minPositive, st.min);
      else if (st.median > 0) minPositive = Math.min(minPositive, st.median);
    }
  }
  return { lo, hi, minPositive };
}

interface Scales {
  plotW: number;
  plotH: number;
  /** Centre of row i on the x axis. */
  xAt: (i: number) => number;
  y: (v: number) => number;
  yTicks: number[];
  xTicks: { x: number; label: string }[];
  band: number;
  log: boolean;
}

function scales(chart: ChartModel, keys: string[], width: number, logY: boolean): Scales {
  const plotW = Math.max(40, width - M.left - M.right);
  const plotH = HEIGHT - M.top - M.bottom;
  const { lo, hi, minPositive } = valueRange(chart, keys);
  let y: (v: number) => number;
  let yTicks: number[];
  let log = false;
  if (logY && Number.isFinite(minPositive) && hi > 0) {
    log = true;
    const e0 = Math.floor(Math.log10(minPositive));
    const e1 = Math.max(e0 + 1, Math.ceil(Math.log10(hi)));
    yTicks = Array.from({ length: e1 - e0 + 1 }, (_, i) => 10 ** (e0 + i));
    y = (v) => M.top + plotH - ((Math.log10(Math.max(v, 10 ** e0)) - e0) / (e1 - e0)) * plotH;
  } else {
    const top = Number.isFinite(hi) ? Math.max(hi, 0) : 1;
    const bottom = Number.isFinite(lo) ? Math.min(lo, 0) : 0;
    yTicks = niceTicks(bottom, top > bottom ? top : bottom + 1);
    const t0 = yTicks[0]!;
    const t1 = yTicks[yTicks.length - 1]!;
    y = (v) => M.top + plotH - ((v - t0) / (t1 - t0)) * plotH;
  }
  const n = chart.rows.length;
  if (chart.kind === "bar" || chart.xKind === "category") {
    const band = plotW / Math.max(1, n);
    return { plotW, plotH, y, yTicks, log, band, xAt: (i) => M.left + band * (i + 0.5), xTicks: chart.rows.map((r, i) => ({ x: M.left + band * (i + 0.5), label: r.xLabel })) };
  }
  const xs = chart.rows.map((r) => Number(r.x));
  const x0 = Math.min(...xs);
  const x1 = Math.max(...xs);
  const pad = 8;
  const xPos = (v: number) => M.left + pad + (x1 > x0 ? ((v - x0) / (x1 - x0)) * (plotW - 2 * pad) : (plotW - 2 * pad) / 2);
  const tickValues = chart.xKind === "log2" ? (chart.xTicks ?? xs) : niceTicks(x0, x1, Math.max(2, Math.min(8, Math.floor(plotW / 70))), true).filter((t) => t >= x0 && t <= x1);
  // Every k-th label when they would overlap (a 4 KiB…16 MiB sweep in a narrow chart).
  const every = Math.max(1, Math.ceil((tickValues.length * 46) / plotW));
  const xTicks = tickValues.map((t, i) => ({ x: xPos(t), label: i % every === 0 ? (chart.xKind === "log2" ? formatKiB(Math.round(2 ** t)) : formatValue(t)) : "" }));
  return { plotW, plotH, y, yTicks, log, band: 0, xAt: (i) => xPos(xs[i]!), xTicks };
}

function linePath(rows: ChartRow[], key: string, xAt: (i: number) => number, y: (v: number) => number): string {
  let d = "";
  rows.forEach((r, i) => {
    const st = r.stats[key];
    if (!st) return;
    d += `${d ? "L" : "M"}${xAt(i).toFixed(1)},${y(st.median).toFixed(1)}`;
  });
  return d;
}

function whisker(x: number, yLo: number, yHi: number, cap = 3): string {
  return `M${x.toFixed(1)},${yLo.toFixed(1)}V${yHi.toFixed(1)}M${(x - cap).toFixed(1)},${yLo.toFixed(1)}h${2 * cap}M${(x - cap).toFixed(1)},${yHi.toFixed(1)}h${2 * cap}`;
}

function Tooltip({ chart, row, series, left, alignRight }: { chart: ChartModel; row: ChartRow; series: SeriesInfo[]; left: number; alignRight: boolean }) {
  const entries = series
    .map((s) => ({ s, stat: row.stats[s.key] }))
    .filter((e): e is { s: SeriesInfo; stat: Stat } => e.stat !== undefined)
    .sort((a, b) => b.stat.median - a.stat.median);
  const heading = chart.xKind === "log2" ? `record ${row.xLabel}` : chart.xKind === "linear" ? `${row.xLabel} after the first sample` : row.xLabel;
  return (
    <div
      className={styles.tooltip}
      data-testid="compare-tooltip"
      role="status"
      style={{ position: "absolute", top: 4, ...(alignRight ? { right: `calc(100% - ${left - 12}px)` } : { left: left + 12 }), zIndex: 20, pointerEvents: "none" }}
    >
      <p>{heading}</p>
      {entries.length === 0 ? <span className="muted">no value here</span> : null}
      <ul>
        {entries.map(({ s, stat }) => (
          <li key={s.key}>
            <Swatch index={s.index} />
            <span className={styles.name}>{s.label}</span>
            <span>
              {formatValue(stat.median)} {chart.yUnit}
            </span>
            {stat.n > 1 ? (
              <span className={`${styles.spread} ${stat.cv !== null && stat.cv > CV_WARN_PERCENT ? styles.cvHigh : ""}`}>
                median of {stat.n} · {formatValue(stat.min)}–{formatValue(stat.max)} · CV {formatCv(stat.cv)}
              </span>
            ) : null}
          </li>
        ))}
      </ul>
    </div>
  );
}

function describe(chart: ChartModel, series: SeriesInfo[]): string {
  const xs = chart.rows.map((r) => r.xLabel);
  const span = chart.kind === "line" && xs.length > 1 ? `from ${xs[0]} to ${xs[xs.length - 1]}` : xs.join(", ");
  return `${chart.title}: ${chart.yUnit} of ${series.length} series over ${chart.xLabel} ${span}. Arrow keys move through the points; the value table has every number.`;
}

function CompareChartImpl({ chart, series, logY = false }: CompareChartProps) {
  const id = useId();
  const box = useRef<HTMLDivElement>(null);
  const [width, setWidth] = useState(DEFAULT_WIDTH);
  const [active, setActive] = useState<number | null>(null);
  useEffect(() => {
    const el = box.current;
    if (!el) return;
    const measure = () => setWidth(Math.max(200, Math.round(el.clientWidth)));
    measure();
    const ro = new ResizeObserver(measure);
    ro.observe(el);
    return () => ro.disconnect();
  }, []);

  const drawn = useMemo(() => series.filter((s) => chart.seriesKeys.includes(s.key)), [series, chart.seriesKeys]);
  const keys = useMemo(() => drawn.map((s) => s.key), [drawn]);
  const sc = useMemo(() => scales(chart, keys, width, logY), [chart, keys, width, logY]);
  const dots = chart.kind === "line" && chart.rows.length <= 40 && drawn.length <= 8;
  const bottom = M.top + sc.plotH;
  const baseY = sc.log ? bottom : sc.y(0);

  const nearest = (px: number): number => {
    if (chart.rows.length === 0) return 0;
    if (chart.kind === "bar" || chart.xKind === "category") return Math.min(chart.rows.length - 1, Math.max(0, Math.floor((px - M.left) / sc.band)));
    let best = 0;
    for (let i = 1; i < chart.rows.length; i++) if (Math.abs(sc.xAt(i) - px) < Math.abs(sc.xAt(best) - px)) best = i;
    return best;
  };
  const onMove = (e: PointerEvent<SVGRectElement>) => {
    const r = (e.currentTarget.ownerSVGElement ?? e.currentTarget).getBoundingClientRect();
    // The SVG is drawn at `width` user units across its box.
    setActive(nearest(((e.clientX - r.left) * width) / r.width));
  };
  const onKey = (e: KeyboardEvent<HTMLDivElement>) => {
    const n = chart.rows.length;
    if (n === 0) return;
    const move: Record<string, number> = { ArrowRight: 1, ArrowUp: 1, ArrowLeft: -1, ArrowDown: -1 };
    if (e.key in move) setActive((a) => Math.min(n - 1, Math.max(0, (a ?? -1) + move[e.key]!)));
    else if (e.key === "Home") setActive(0);
    else if (e.key === "End") setActive(n - 1);
    else if (e.key === "Escape") setActive(null);
    else return;
    e.preventDefault();
  };

  // Bars: one slot per drawn series inside each category band.
  const slot = chart.kind === "bar" ? Math.min(56, (sc.band * 0.8) / Math.max(1, drawn.length)) : 0;
  const activeRow = active !== null ? chart.rows[active] : undefined;
  const activeX = active !== null ? sc.xAt(active) : 0;

  return (
    <figure className={styles.chart} data-testid="compare-chart" data-chart={chart.id}>
      <figcaption id={`${id}-t`}>{chart.title}</figcaption>
      {chart.note ? <p className={styles.chartNote}>{chart.note}</p> : null}
      <p className={styles.axisLabel}>
        {chart.yUnit}
        {sc.log ? " (log scale)" : ""}
      </p>
      <div
        ref={box}
        className={styles.plot}
        tabIndex={0}
        role="group"
        aria-labelledby={`${id}-t`}
        aria-describedby={`${id}-d`}
        onKeyDown={onKey}
        onFocus={() => setActive((a) => a ?? 0)}
        onBlur={() => setActive(null)}
      >
        <span id={`${id}-d`} className={styles.srOnly}>
          {describe(chart, drawn)}
        </span>
        <svg className={styles.svg} width="100%" height={HEIGHT} viewBox={`0 0 ${width} ${HEIGHT}`} aria-hidden="true" data-testid="compare-svg">
          {sc.yTicks.map((t) => (
            <g key={`y${t}`}>
              <line className={styles.gridLine} x1={M.left} x2={M.left + sc.plotW} y1={sc.y(t)} y2={sc.y(t)} />
              <text className={styles.tick} x={M.left - 6} y={sc.y(t)} dy="0.32em" textAnchor="end">
                {formatTick(t)}
              </text>
            </g>
          ))}
          {sc.xTicks.map((t, i) => (
            <g key={`x${i}`}>
              {chart.kind === "line" ? <line className={styles.gridLine} x1={t.x} x2={t.x} y1={M.top} y2={bottom} /> : null}
              <text className={styles.tick} x={t.x} y={bottom + 15} textAnchor="middle">
                {t.label}
              </text>
            </g>
          ))}
          <line className={styles.axis} x1={M.left} x2={M.left + sc.plotW} y1={bottom} y2={bottom} />
          {chart.kind === "bar" && activeRow ? <rect className={styles.band} x={activeX - sc.band / 2} y={M.top} width={sc.band} height={sc.plotH} /> : null}
          {chart.kind === "line"
            ? drawn.map((s) => (
                <g key={s.key} stroke={seriesColor(s.index)} fill="none">
                  <path d={linePath(chart.rows, s.key, sc.xAt, sc.y)} strokeWidth={1.8} strokeDasharray={seriesDash(s.index) || undefined} strokeLinejoin="round" />
                  {chart.rows.map((r, i) => {
                    const st = r.stats[s.key];
                    if (!st) return null;
                    return (
                      <g key={i}>
                        {st.n > 1 ? <path d={whisker(sc.xAt(i), sc.y(st.min), sc.y(st.max))} strokeWidth={1.2} /> : null}
                        {dots ? <circle cx={sc.xAt(i)} cy={sc.y(st.median)} r={2.5} fill={seriesColor(s.index)} /> : null}
                      </g>
                    );
                  })}
                </g>
              ))
            : chart.rows.map((r, i) => {
                const cx = sc.xAt(i);
                const start = cx - (slot * drawn.length) / 2;
                return (
                  <g key={i}>
                    {drawn.map((s, j) => {
                      const st = r.stats[s.key];
                      if (!st) return null;
                      const yv = sc.y(st.median);
                      const hollow = seriesHollow(s.index);
                      const x = start + j * slot + slot * 0.08;
                      const w = slot * 0.84;
                      return (
                        <g key={s.key}>
                          <rect x={x} y={Math.min(yv, baseY)} width={w} height={Math.abs(baseY - yv)} fill={seriesColor(s.index)} fillOpacity={hollow ? 0.25 : 1} stroke={hollow ? seriesColor(s.index) : "none"} />
                          {st.n > 1 ? <path d={whisker(x + w / 2, sc.y(st.min), sc.y(st.max), Math.min(4, w / 3))} stroke="var(--text)" strokeWidth={1.3} fill="none" /> : null}
                        </g>
                      );
                    })}
                  </g>
                );
              })}
          {chart.kind === "line" && activeRow ? (
            <g>
              <line className={styles.cursor} x1={activeX} x2={activeX} y1={M.top} y2={bottom} />
              {drawn.map((s) => {
                const st = activeRow.stats[s.key];
                return st ? <circle key={s.key} cx={activeX} cy={sc.y(st.median)} r={4} fill={seriesColor(s.index)} stroke="var(--bg)" strokeWidth={1.5} /> : null;
              })}
            </g>
          ) : null}
          <rect x={M.left} y={M.top} width={sc.plotW} height={sc.plotH} fill="transparent" onPointerMove={onMove} onPointerDown={onMove} onPointerLeave={() => setActive(null)} />
        </svg>
        {activeRow ? <Tooltip chart={chart} row={activeRow} series={drawn} left={activeX} alignRight={activeX > width * 0.55} /> : null}
      </div>
      <p className={styles.xAxisLabel}>
        {chart.xLabel}
        {chart.xKind === "log2" ? " (log₂ scale)" : ""}
      </p>
    </figure>
  );
}

export const CompareChart = memo(CompareChartImpl);
