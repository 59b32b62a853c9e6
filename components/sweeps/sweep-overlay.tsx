"use client";

import Link from "next/link";
import { seriesColor } from "@/components/charts/palette";
import type { SweepView } from "@/lib/sweeps/types";
import { chartRows, curves, curveSeries, fioCaption, fmtIops, fmtLatUs, measure, sweepDifferences, sweepShortNames, type Measure } from "./sweep-chart-data";
import { SweepLineChart } from "./sweep-line-chart";
import styles from "./sweeps.module.css";

/** Both sweeps' curves of one measure: a colour per job count (and block size), A solid and B dashed. */
function overlay(a: SweepView, b: SweepView, m: Measure) {
  const [na, nb] = sweepShortNames(a, b);
  const names = [...new Set([...curves(a), ...curves(b)].map((c) => c.name))];
  const sides = [
    { tag: "a", view: a, label: na, dash: undefined },
    { tag: "b", view: b, label: nb, dash: "6 4" },
  ];
  const series = sides.flatMap((s) => curveSeries(curves(s.view), m).map((c) => ({ ...c, key: `${s.tag}_${c.key}`, name: `${s.label}, ${c.name}` })));
  const lines = sides.flatMap((s) => curves(s.view).map((c) => ({ key: `${s.tag}_${c.key}`, name: `${s.label}, ${c.name}`, color: seriesColor(names.indexOf(c.name)), dash: s.dash })));
  const qds = [...new Set([...a.grid.iodepths, ...b.grid.iodepths])];
  const summary = sides
    .map((s) => `${s.label}: ${curves(s.view).map((c) => `${c.name} ${c.points.map((p) => `QD ${p.iodepth} ${m === "iops" ? fmtIops(measure(p, m)) : fmtLatUs(measure(p, m))}`).join(", ")}`).join("; ")}`)
    .join(". ");
  return { rows: chartRows(qds, series, m !== "iops"), lines, summary };
}

/** Two sweeps on one pair of charts, the legend naming what differs between them and each one's saturation sentence. */
export function SweepOverlay({ a, b }: { a: SweepView; b: SweepView }) {
  const diffs = sweepDifferences(a, b);
  const [na, nb] = sweepShortNames(a, b);
  const iops = overlay(a, b, "iops");
  const p99 = overlay(a, b, "p99");
  const caption = `A: ${fioCaption(a)} · B: ${fioCaption(b)} · A solid, B dashed`;
  return (
    <>
      <section className="panel" data-testid="overlay-legend" aria-label="What differs">
        <h2 style={{ marginTop: 0 }}>What differs</h2>
        {diffs.length === 0 ? (
          <p className="muted">Host, target, file system, workload and fio version are the same: the two sweeps are repeats.</p>
        ) : (
          <div className="table-wrap">
            <table className="data">
              <thead>
                <tr>
                  <th />
                  <th>A (solid)</th>
                  <th>B (dashed)</th>
                </tr>
              </thead>
              <tbody>
                {diffs.map((d) => (
                  <tr key={d.label}>
                    <th scope="row">{d.label}</th>
                    <td>{d.a}</td>
                    <td>{d.b}</td>
                  </tr>
                ))}
              </tbody>
            </table>
          </div>
        )}
        <ul className={styles.legendList}>
          {[
            { v: a, name: na },
            { v: b, name: nb },
          ].map(({ v, name }) => (
            <li key={name} data-testid="overlay-saturation">
              <strong>
                <Link href={`/experiments/${v.experimentId}`}>{name}</Link>
              </strong>
              : {v.saturation?.sentence ?? "no saturation point yet"}
            </li>
          ))}
        </ul>
        {a.saturation ? <p className="muted small">Rule: {a.saturation.rule}</p> : null}
      </section>
      <div className={styles.chartRow}>
        <SweepLineChart testId="overlay-iops-chart" title="IOPS vs queue depth" caption={caption} summary={iops.summary} rows={iops.rows} lines={iops.lines} yLabel="IOPS" fmt={fmtIops} />
        <SweepLineChart testId="overlay-p99-chart" title="p99 latency vs queue depth (log scale)" caption={caption} summary={p99.summary} rows={p99.rows} lines={p99.lines} yLabel="p99 latency" fmt={fmtLatUs} logY />
      </div>
    </>
  );
}
