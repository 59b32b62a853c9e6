"use client";

import { CartesianGrid, ResponsiveContainer, Scatter, ScatterChart, Tooltip, XAxis, YAxis, ZAxis } from "recharts";
import { seriesColor } from "@/components/charts/palette";
import type { ArmPoints } from "@/lib/experiments/chart-points";

const fmt = (v: number) => v.toLocaleString("en-US", { maximumFractionDigits: 2 });

/** Every valid run's value per arm as a dot, the median (lib/experiments/chart-points.ts) as a cross: the spread at a glance. */
export function ArmSpreadChart({ title, unit, arms }: { title: string; unit: string; arms: ArmPoints[] }) {
  const summary = `${title}: ${arms.map((a) => `${a.label} median ${a.median === null ? "none" : `${fmt(a.median)} ${unit}`} over ${a.values.length} runs`).join("; ")}`;
  return (
    <figure className="panel" data-testid="arm-spread-chart" role="img" aria-label={summary} style={{ margin: "1rem 0" }}>
      <figcaption style={{ fontWeight: 600, marginBottom: 8 }}>{title}</figcaption>
      <ResponsiveContainer width="100%" height={260}>
        <ScatterChart margin={{ top: 10, right: 20, bottom: 20, left: 20 }}>
          <CartesianGrid stroke="var(--border)" />
          <XAxis type="category" dataKey="arm" allowDuplicatedCategory={false} stroke="var(--muted)" />
          <YAxis type="number" dataKey="value" stroke="var(--muted)" tickFormatter={fmt} width={90} label={{ value: unit, angle: -90, position: "insideLeft", fill: "var(--muted)" }} />
          <ZAxis range={[50, 50]} />
          <Tooltip formatter={(v) => fmt(Number(v))} contentStyle={{ background: "var(--panel)", border: "1px solid var(--border)" }} />
          {arms.map((a, i) => (
            <Scatter key={a.label} name={a.label} data={a.values.map((value) => ({ arm: a.label, value }))} fill={seriesColor(i)} isAnimationActive={false} />
          ))}
          <Scatter name="median" data={arms.flatMap((a) => (a.median === null ? [] : [{ arm: a.label, value: a.median }]))} fill="var(--text)" shape="cross" isAnimationActive={false} />
        </ScatterChart>
      </ResponsiveContainer>
    </figure>
  );
}
