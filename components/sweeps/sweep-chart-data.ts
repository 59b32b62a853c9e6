// A SweepView (lib/sweeps/types.ts) turned into what the sweep charts, heatmap and table draw:
// pure functions, so the shapes are tested without a browser. No server import here.
import type { SweepPointKey, SweepPointResult, SweepView } from "@/lib/sweeps/types";

/** One line of a fio-plot chart: a job count (at a block size when the block size is swept). */
export interface SweepCurve {
  key: string;
  name: string;
  numjobs: number;
  blockSizeKiB: number;
  /** Its points ordered by iodepth. */
  points: SweepPointResult[];
  /** The iodepth where this curve saturates (SweepSaturation.perCurve), null if none or not known. */
  saturatedAt: number | null;
}

/**
 * A point with figures is drawn: a done one counts, an invalid one (flagged by the run checks) is
 * drawn hollow and does not count towards the saturation point; pending, running, failed and
 * cancelled points have no figures and leave a gap.
 */
export const drawn = (p: SweepPointResult) => p.status === "done" || p.status === "invalid";
export const flagged = (p: SweepPointResult) => p.status === "invalid";

export function curves(view: SweepView): SweepCurve[] {
  const bsSwept = view.grid.blockSizesKiB.length > 1;
  const out: SweepCurve[] = [];
  for (const bs of view.grid.blockSizesKiB) {
    for (const nj of view.grid.numjobs) {
      const points = view.points.filter((p) => p.numjobs === nj && p.blockSizeKiB === bs).sort((a, b) => a.iodepth - b.iodepth);
      const saturatedAt = view.saturation?.perCurve.find((c) => c.numjobs === nj && c.blockSizeKiB === bs)?.iodepth ?? null;
      out.push({ key: `j${nj}_b${bs}`, name: `${nj} job${nj === 1 ? "" : "s"}${bsSwept ? ` · ${bs} KiB` : ""}`, numjobs: nj, blockSizeKiB: bs, points, saturatedAt });
    }
  }
  return out;
}

export type Measure = "iops" | "mbps" | "p50" | "p99" | "p999";

/** The value drawn for a point: IOPS, MB/s (10^6 bytes, as fio prints MB/s), latency in µs. */
export function measure(p: SweepPointResult, m: Measure): number | null {
  if (!drawn(p)) return null;
  switch (m) {
    case "iops":
      return p.iops;
    case "mbps":
      return p.bandwidthBps === null ? null : p.bandwidthBps / 1e6;
    case "p50":
      return p.latP50Ns === null ? null : p.latP50Ns / 1000;
    case "p99":
      return p.latP99Ns === null ? null : p.latP99Ns / 1000;
    case "p999":
      return p.latP999Ns === null ? null : p.latP999Ns / 1000;
  }
}

export type ChartRow = { qd: number } & Record<string, number | null>;

/** The column saying a series' point at that depth was flagged (1) or not (0). */
export const flagKey = (key: string) => `${key}__flagged`;

/**
 * One row per iodepth of the grid; a column per series key, and its flag column when the series
 * says which points were flagged. A latency of 0 cannot sit on a log axis and is left out.
 */
export function chartRows(iodepths: number[], series: { key: string; value: (qd: number) => number | null; flagged?: (qd: number) => boolean }[], log = false): ChartRow[] {
  return [...iodepths]
    .sort((a, b) => a - b)
    .map((qd) => {
      const row: ChartRow = { qd };
      for (const s of series) {
        const v = s.value(qd);
        row[s.key] = v === null || !Number.isFinite(v) || (log && v <= 0) ? null : v;
        if (s.flagged) row[flagKey(s.key)] = s.flagged(qd) ? 1 : 0;
      }
      return row;
    });
}

/** Series for one measure: one per curve. */
export function curveSeries(cs: SweepCurve[], m: Measure) {
  return cs.map((c) => ({
    key: c.key,
    name: c.name,
    value: (qd: number) => {
      const p = c.points.find((x) => x.iodepth === qd);
      return p ? measure(p, m) : null;
    },
    flagged: (qd: number) => c.points.some((x) => x.iodepth === qd && flagged(x)),
  }));
}

/** Powers of ten spanning [min, max] (and one either side when the data sits inside one decade), for a log axis. */
export function logTicks(values: number[]): number[] {
  const pos = values.filter((v) => Number.isFinite(v) && v > 0);
  if (pos.length === 0) return [];
  const lo = Math.floor(Math.log10(Math.min(...pos)));
  let hi = Math.ceil(Math.log10(Math.max(...pos)));
  if (hi === lo) hi = lo + 1;
  const out: number[] = [];
  for (let e = lo; e <= hi; e++) out.push(Number((10 ** e).toPrecision(1)));
  return out;
}

/** "92.4 k", "1.2 M", "812": IOPS as fio-plot labels them. */
export function fmtIops(v: number | null): string {
  if (v === null) return "–";
  if (v >= 1e6) return `${(v / 1e6).toFixed(v >= 1e7 ? 0 : 1)} M`;
  if (v >= 1e3) return `${(v / 1e3).toFixed(v >= 1e5 ? 0 : 1)} k`;
  return v.toFixed(v >= 100 ? 0 : 1);
}

/** A latency in µs as a short figure with its unit: "85 µs", "1.9 ms", "2.1 s". */
export function fmtLatUs(us: number | null): string {
  if (us === null) return "–";
  if (us >= 1e6) return `${(us / 1e6).toFixed(us >= 1e7 ? 0 : 1)} s`;
  if (us >= 1e3) return `${(us / 1e3).toFixed(us >= 1e4 ? 0 : 1)} ms`;
  if (us >= 10) return `${us.toFixed(0)} µs`;
  return `${us.toFixed(1)} µs`;
}

export const fmtLatNs = (ns: number | null) => (ns === null ? "–" : fmtLatUs(ns / 1000));

export function fmtMBps(bps: number | null): string {
  if (bps === null) return "–";
  const v = bps / 1e6;
  return v.toLocaleString("en-US", { maximumFractionDigits: v >= 100 ? 0 : 1 });
}

export function pointLabel(k: SweepPointKey, bsSwept: boolean): string {
  return `QD ${k.iodepth} × ${k.numjobs} job${k.numjobs === 1 ? "" : "s"}${bsSwept ? ` · ${k.blockSizeKiB} KiB` : ""}`;
}

/** What the caption says about the tool, on every chart. */
export const fioCaption = (view: Pick<SweepView, "fioVersion">) => (view.fioVersion ? view.fioVersion : "fio version not reported");

export interface HeatCell {
  iodepth: number;
  numjobs: number;
  point: SweepPointResult | null;
  /** 0..1 of the largest IOPS in the grid; null when the point has no figure. */
  level: number | null;
  /** The figures as words, for the cell's accessible name and title. */
  text: string;
}

/** The heatmap of one block size: rows are job counts (largest on top, as fio-plot draws), columns queue depths. */
export function heatRows(view: SweepView, blockSizeKiB: number): HeatCell[][] {
  const pts = view.points.filter((p) => p.blockSizeKiB === blockSizeKiB);
  const max = Math.max(0, ...pts.map((p) => measure(p, "iops") ?? 0));
  const qds = [...view.grid.iodepths].sort((a, b) => a - b);
  return [...view.grid.numjobs]
    .sort((a, b) => b - a)
    .map((nj) =>
      qds.map((qd) => {
        const point = pts.find((p) => p.iodepth === qd && p.numjobs === nj) ?? null;
        const iops = point ? measure(point, "iops") : null;
        const label = pointLabel({ iodepth: qd, numjobs: nj, blockSizeKiB }, false);
        const text =
          point === null
            ? `${label}: not in the sweep`
            : iops === null
              ? `${label}: ${point.status}${point.problem ? ` (${point.problem})` : ""}`
              : `${label}: ${fmtIops(iops)} IOPS, p99 ${fmtLatNs(point.latP99Ns)}${flagged(point) ? `, not counted (${point.problem ?? "flagged by the run checks"})` : ""}`;
        return { iodepth: qd, numjobs: nj, point, level: iops === null || max === 0 ? null : iops / max, text };
      }),
    );
}

/** A colour from dark blue (low) to yellow (high): readable numbers in both, dark text on the light end. */
export function heatColor(level: number): { bg: string; fg: string } {
  const t = Math.min(1, Math.max(0, level));
  const from = [22, 50, 90];
  const to = [242, 204, 96];
  const c = from.map((f, i) => Math.round(f + (to[i]! - f) * t));
  return { bg: `rgb(${c.join(",")})`, fg: t > 0.55 ? "#0f1419" : "#e6edf3" };
}

/** Point counts by status, for the progress line. */
export function progressCounts(view: SweepView): { total: number; ended: number; running: number; done: number; problems: number } {
  const ended = view.points.filter((p) => p.status !== "pending" && p.status !== "running").length;
  return {
    total: view.points.length,
    ended,
    running: view.points.filter((p) => p.status === "running").length,
    done: view.points.filter((p) => p.status === "done").length,
    problems: view.points.filter((p) => p.status === "failed" || p.status === "invalid" || p.status === "cancelled").length,
  };
}

/** A chart's words for screen readers: each curve's values in order. */
export function chartSummary(title: string, cs: SweepCurve[], m: Measure, fmt: (v: number | null) => string): string {
  const parts = cs.map((c) => `${c.name}: ${c.points.map((p) => `QD ${p.iodepth} ${fmt(measure(p, m))}${flagged(p) ? " (not counted)" : ""}`).join(", ")}`);
  return `${title}. ${parts.join("; ")}.`;
}

/** What differs between two sweeps, for the overlay's legend: only the facts that are not equal. */
export function sweepDifferences(a: SweepView, b: SweepView): { label: string; a: string; b: string }[] {
  const wl = (v: SweepView) => {
    const w = v.workload;
    return `${w.rw}${w.rw === "randrw" && w.rwmixread !== null ? ` ${w.rwmixread}% reads` : ""}, ${v.grid.blockSizesKiB.join("/")} KiB, ${w.ioengine}${w.direct ? ", direct" : ", buffered"}, ${w.sizeMiB} MiB, ${w.pointRuntimeSec} s points`;
  };
  const facts: [string, (v: SweepView) => string][] = [
    ["host", (v) => v.hostLabel ?? "hidden"],
    ["target", (v) => v.target ?? "hidden"],
    ["file system", (v) => v.fsType ?? "unknown"],
    ["workload", wl],
    ["fio", (v) => v.fioVersion ?? "unknown"],
  ];
  return facts.flatMap(([label, f]) => (f(a) === f(b) ? [] : [{ label, a: f(a), b: f(b) }]));
}

/** A short name for each sweep in the overlay: the first fact that differs (not the long workload line), else its title. */
export function sweepShortNames(a: SweepView, b: SweepView): [string, string] {
  const d = sweepDifferences(a, b).find((x) => x.label !== "workload");
  return d ? [`A: ${d.a}`, `B: ${d.b}`] : [`A: ${a.title}`, `B: ${b.title}`];
}
