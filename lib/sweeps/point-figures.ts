// A sweep point's figures from its fio run's stored measurements (pure): totals over reads and
// writes, and completion-latency percentiles over all of the point's I/O.
import type { Measurement } from "../../probes/core/types";

type M = Pick<Measurement, "metric" | "value" | "dims">;

const DIRECTIONS = ["read", "write", "trim"];

/** The directions that moved data: fio reports the unused ones as zeros. "mixed" alone when fio unified them. */
function activeDirections(ms: readonly M[]): string[] {
  const moved = (d: string) => ms.some((m) => m.metric === "io_bytes" && m.dims.direction === d && m.value > 0) || ms.some((m) => m.metric === "iops" && m.dims.direction === d && m.value > 0);
  if (moved("mixed")) return ["mixed"];
  return DIRECTIONS.filter(moved);
}

const sumOf = (ms: readonly M[], metric: string, dirs: string[]) => {
  const xs = ms.filter((m) => m.metric === metric && dirs.includes(String(m.dims.direction)));
  return xs.length === 0 ? null : xs.reduce((s, m) => s + m.value, 0);
};

/**
 * The q-th percentile (0–100) over all I/O of several directions from each one's percentiles:
 * the mixed distribution's CDF is the I/O-weighted sum of theirs, F(x) = Σ wᵢ·Fᵢ(x), with each
 * Fᵢ read as a step function from the percentiles fio printed. The answer is the smallest
 * printed latency where F reaches q, exact for one direction and within fio's percentile list's
 * resolution for a mix (fio reports no percentile over reads and writes together).
 */
export function mixedPercentile(sides: readonly { weight: number; points: readonly { p: number; ns: number }[] }[], q: number): number | null {
  const live = sides.filter((s) => s.weight > 0 && s.points.length > 0);
  if (live.length === 0) return null;
  if (live.length === 1) {
    const exact = live[0]!.points.find((x) => Math.abs(x.p - q) < 1e-9);
    if (exact) return exact.ns;
  }
  const total = live.reduce((s, x) => s + x.weight, 0);
  const candidates = [...new Set(live.flatMap((s) => s.points.map((x) => x.ns)))].sort((a, b) => a - b);
  const cdf = (ns: number) => live.reduce((s, side) => s + (side.weight / total) * Math.max(0, ...side.points.filter((x) => x.ns <= ns).map((x) => x.p)), 0);
  return candidates.find((ns) => cdf(ns) >= q - 1e-9) ?? candidates[candidates.length - 1] ?? null;
}

export interface PointFigures {
  iops: number | null;
  bandwidthBps: number | null;
  latP50Ns: number | null;
  latP99Ns: number | null;
  latP999Ns: number | null;
  runtimeSec: number | null;
}

export function pointFigures(ms: readonly M[]): PointFigures {
  const dirs = activeDirections(ms);
  const sides = dirs.map((d) => ({
    weight: sumOf(ms, "iops", [d]) ?? 0,
    points: ms.flatMap((m) => {
      const p = /^clat_p(\d+(?:\.\d+)?)$/.exec(m.metric);
      return p && m.dims.direction === d ? [{ p: Number(p[1]), ns: m.value }] : [];
    }),
  }));
  const runtimes = ms.filter((m) => m.metric === "runtime" && dirs.includes(String(m.dims.direction))).map((m) => m.value);
  return {
    iops: dirs.length ? sumOf(ms, "iops", dirs) : null,
    bandwidthBps: dirs.length ? sumOf(ms, "bw", dirs) : null,
    latP50Ns: mixedPercentile(sides, 50),
    latP99Ns: mixedPercentile(sides, 99),
    latP999Ns: mixedPercentile(sides, 99.9),
    runtimeSec: runtimes.length ? Math.max(...runtimes) / 1000 : null,
  };
}
