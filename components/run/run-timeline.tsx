"use client";

import { CartesianGrid, Legend, Line, LineChart, ResponsiveContainer, Tooltip, XAxis, YAxis } from "recharts";
import { seriesColor } from "@/components/charts/palette";
import { noTelemetryNote, panelRows, panelsToDraw, type PanelSample, type TelemetryOrigin } from "@/lib/timeline/panels";
import type { ProgressSeries } from "@/probes/core/view";

const fmt = (v: number) => v.toLocaleString("en-US", { maximumFractionDigits: 1 });
const AXIS = "var(--muted)";

function Panel({ id, title, unit, rows, series, maxT }: { id: string; title: string; unit: string; rows: Record<string, number>[]; series: { key: string; label: string }[]; maxT: number }) {
  return (
    <figure className="panel" data-testid="timeline-panel" data-panel={id} data-points={rows.length} style={{ margin: "0.5rem 0" }}>
      <figcaption style={{ fontWeight: 600, marginBottom: 4 }}>
        {title} <span className="muted small">({unit})</span>
      </figcaption>
      <ResponsiveContainer width="100%" height={150}>
        <LineChart data={rows} syncId="run-timeline" margin={{ top: 5, right: 20, bottom: 5, left: 20 }}>
          <CartesianGrid stroke="var(--border)" />
          <XAxis dataKey="t" type="number" domain={[0, Math.max(1, maxT)]} stroke={AXIS} tickFormatter={(t: number) => `${fmt(t)} s`} />
          <YAxis stroke={AXIS} tickFormatter={fmt} width={70} />
          <Tooltip formatter={(v) => fmt(Number(v))} labelFormatter={(t) => `${fmt(Number(t))} s`} contentStyle={{ background: "var(--panel)", border: "1px solid var(--border)" }} />
          <Legend verticalAlign="top" height={24} />
          {series.map((s, i) => (
            <Line key={s.key} dataKey={s.key} name={s.label} stroke={seriesColor(i)} dot={rows.length < 3} isAnimationActive={false} connectNulls />
          ))}
        </LineChart>
      </ResponsiveContainer>
    </figure>
  );
}

/**
 * The probe's own progress with the machine's telemetry underneath, all on the run's elapsed
 * seconds (one shared x domain and a synced tooltip), so a dip in throughput lines up with the
 * device, iowait or write-back sample that explains it.
 */
export function RunTimeline({
  samples,
  progress,
  live,
  origin = "AGENT",
  drawnElsewhere = [],
}: {
  samples: readonly PanelSample[];
  progress: readonly ProgressSeries[];
  live: boolean;
  origin?: TelemetryOrigin;
  /** Telemetry panel ids another part of the page already draws (see panelsToDraw). */
  drawnElsewhere?: readonly string[];
}) {
  const maxT = Math.max(0, ...samples.map((s) => s.t), ...progress.flatMap((p) => p.points.map((q) => q.t)));
  const byUnit = new Map<string, ProgressSeries[]>();
  for (const p of progress) byUnit.set(p.unit, [...(byUnit.get(p.unit) ?? []), p]);
  const hasDevice = samples.some((s) => s.device);
  if (samples.length === 0 && progress.length === 0) {
    return (
      <p className="muted" data-testid="run-timeline-empty">
        {live ? "Waiting for the first telemetry sample…" : noTelemetryNote(origin)}
      </p>
    );
  }
  return (
    <div data-testid="run-timeline" data-samples={samples.length} data-live={live ? "1" : "0"}>
      {[...byUnit].map(([unit, list]) => {
        const ts = [...new Set(list.flatMap((p) => p.points.map((q) => q.t)))].sort((a, b) => a - b);
        const rows = ts.map((t) => {
          const row: Record<string, number> = { t };
          for (const p of list) {
            const q = p.points.find((x) => x.t === t);
            if (q) row[p.key] = Math.round(q.v * 100) / 100;
          }
          return row;
        });
        return <Panel key={unit} id={`progress-${unit}`} title="Probe progress" unit={unit} rows={rows} series={list.map((p) => ({ key: p.key, label: p.label }))} maxT={maxT} />;
      })}
      {samples.length === 0 && !live ? (
        // Empty frames without axes would say nothing: one line says why there are none.
        <p className="muted" data-testid="run-timeline-no-telemetry">
          {noTelemetryNote(origin)}
        </p>
      ) : (
        panelsToDraw(samples, drawnElsewhere).map((p) => <Panel key={p.id} id={p.id} title={p.title} unit={p.unit} rows={panelRows(p, samples)} series={p.series} maxT={maxT} />)
      )}
      {!hasDevice && samples.length > 0 ? <p className="muted small">The target has no block device of its own (tmpfs, btrfs): device panels are left out.</p> : null}
    </div>
  );
}
