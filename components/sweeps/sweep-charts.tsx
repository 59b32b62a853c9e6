"use client";

import { useId, useState } from "react";
import { seriesColor, seriesDash } from "@/components/charts/palette";
import type { SweepView } from "@/lib/sweeps/types";
import { chartRows, chartSummary, curves, curveSeries, fioCaption, flagged, fmtIops, fmtLatUs, measure, type Measure } from "./sweep-chart-data";
import { SweepLineChart, type ChartMark } from "./sweep-line-chart";
import { workloadText } from "./sweep-text";
import styles from "./sweeps.module.css";

const fmtMB = (v: number | null) => (v === null ? "–" : v.toLocaleString("en-US", { maximumFractionDigits: v >= 100 ? 0 : 1 }));
const PCTS: { m: Measure; name: string }[] = [
  { m: "p50", name: "p50" },
  { m: "p99", name: "p99" },
  { m: "p999", name: "p99.9" },
];

/**
 * The sweep drawn as fio-plot draws it: IOPS and bandwidth against queue depth with a line per job
 * count (and block size when swept), and the latency percentiles of one curve on a log axis. The
 * saturation point is a dashed line at its depth and a ring on its curve; each curve's own
 * saturation depth is a smaller ring.
 */
export function SweepCharts({ view }: { view: SweepView }) {
  const cs = curves(view);
  const sat = view.saturation?.point ?? null;
  const satCurve = sat ? cs.find((c) => c.numjobs === sat.numjobs && c.blockSizeKiB === sat.blockSizeKiB) : undefined;
  const [latKey, setLatKey] = useState(satCurve?.key ?? cs[0]?.key ?? "");
  const selectId = useId();
  const latCurve = cs.find((c) => c.key === latKey) ?? cs[0];
  const caption = `${fioCaption(view)} · ${workloadText(view)}`;
  const lines = cs.map((c, i) => ({ key: c.key, name: c.name, color: seriesColor(i), dash: seriesDash(i) || undefined }));

  function marks(m: Measure): ChartMark[] {
    return cs.flatMap((c, i) => {
      if (c.saturatedAt === null) return [];
      const p = c.points.find((x) => x.iodepth === c.saturatedAt);
      const v = p ? measure(p, m) : null;
      return v === null ? [] : [{ qd: c.saturatedAt, value: v, color: c === satCurve ? "var(--danger)" : seriesColor(i) }];
    });
  }
  const satQd = sat?.iodepth ?? null;
  const latLines = PCTS.map((p, i) => ({ key: p.m, name: p.name, color: seriesColor(i + 2) }));
  const latRows = latCurve
    ? chartRows(
        view.grid.iodepths,
        PCTS.map((p) => ({
          key: p.m,
          value: (qd: number) => {
            const pt = latCurve.points.find((x) => x.iodepth === qd);
            return pt ? measure(pt, p.m) : null;
          },
          flagged: (qd: number) => latCurve.points.some((x) => x.iodepth === qd && flagged(x)),
        })),
        true,
      )
    : [];
  const latSummary = latCurve ? `Completion latency for ${latCurve.name}: ${latCurve.points.map((p) => `QD ${p.iodepth} p50 ${fmtLatUs(measure(p, "p50"))}, p99 ${fmtLatUs(measure(p, "p99"))}, p99.9 ${fmtLatUs(measure(p, "p999"))}`).join("; ")}.` : "No curve.";
  const latMark = latCurve && latCurve.saturatedAt !== null ? latCurve.points.find((p) => p.iodepth === latCurve.saturatedAt) : undefined;
  const latMarkValue = latMark ? measure(latMark, "p99") : null;
  return (
    <div className={styles.chartRow}>
      <SweepLineChart
        testId="sweep-iops-chart"
        title="IOPS vs queue depth"
        caption={caption}
        summary={chartSummary("IOPS vs queue depth", cs, "iops", fmtIops)}
        rows={chartRows(view.grid.iodepths, curveSeries(cs, "iops"))}
        lines={lines}
        yLabel="IOPS"
        fmt={fmtIops}
        marks={marks("iops")}
        saturationQd={satQd}
      />
      <SweepLineChart
        testId="sweep-bw-chart"
        title="Bandwidth vs queue depth"
        caption={caption}
        summary={chartSummary("Bandwidth in MB/s vs queue depth", cs, "mbps", fmtMB)}
        rows={chartRows(view.grid.iodepths, curveSeries(cs, "mbps"))}
        lines={lines}
        yLabel="MB/s"
        fmt={fmtMB}
        marks={marks("mbps")}
        saturationQd={satQd}
      />
      <div style={{ minWidth: 0 }}>
        <SweepLineChart
          testId="sweep-latency-chart"
          title={`Latency percentiles vs queue depth${latCurve ? `, ${latCurve.name}` : ""} (log scale)`}
          caption={caption}
          summary={latSummary}
          rows={latRows}
          lines={latLines}
          yLabel="completion latency"
          fmt={fmtLatUs}
          logY
          marks={latMark && latMarkValue !== null ? [{ qd: latMark.iodepth, value: latMarkValue, color: "var(--danger)" }] : []}
          saturationQd={latCurve === satCurve ? satQd : null}
        />
        {cs.length > 1 ? (
          <label className="small" htmlFor={selectId} style={{ display: "flex", gap: "0.5rem", alignItems: "center" }}>
            Latency of
            <select id={selectId} value={latCurve?.key ?? ""} onChange={(e) => setLatKey(e.target.value)} data-testid="latency-curve">
              {cs.map((c) => (
                <option key={c.key} value={c.key}>
                  {c.name}
                </option>
              ))}
            </select>
          </label>
        ) : null}
      </div>
    </div>
  );
}
