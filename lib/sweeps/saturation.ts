// Where more load stops buying throughput and starts costing latency (pure; the reader feeds it
// the done, valid points of a sweep).
import { loadOf, pointLabel } from "./grid";
import type { SweepPointKey, SweepPointResult, SweepSaturation } from "./types";

export const IOPS_GAIN_BELOW_PCT = 5;
export const P99_RISE_ABOVE_PCT = 50;

export const SATURATION_RULE =
  `The saturation point is the smallest load (iodepth × numjobs) beyond which the next larger load on the curve raises IOPS by less than ${IOPS_GAIN_BELOW_PCT} % ` +
  `while raising p99 latency by more than ${P99_RISE_ABOVE_PCT} %. Only finished points without a flag count; over the whole grid, of the points with the same load the one with the most IOPS stands for it.`;

type Point = Pick<SweepPointResult, "iodepth" | "numjobs" | "blockSizeKiB" | "iops" | "latP99Ns">;
type Measured = SweepPointKey & { iops: number; latP99Ns: number };

const measured = (p: Point): p is Measured => p.iops !== null && p.latP99Ns !== null && p.iops > 0 && p.latP99Ns > 0;

/** A curve's points by ascending load; equal loads keep the one with the most IOPS. */
function curve(points: readonly Measured[]): Measured[] {
  const best = new Map<number, Measured>();
  for (const p of points) {
    const held = best.get(loadOf(p));
    if (!held || p.iops > held.iops) best.set(loadOf(p), p);
  }
  return [...best.values()].sort((a, b) => loadOf(a) - loadOf(b));
}

/** The first point of a load-ordered curve past which the rule holds, or null. */
export function saturationOn(points: readonly Measured[]): Measured | null {
  for (let i = 0; i + 1 < points.length; i++) {
    const a = points[i]!;
    const b = points[i + 1]!;
    if (b.iops < a.iops * (1 + IOPS_GAIN_BELOW_PCT / 100) && b.latP99Ns > a.latP99Ns * (1 + P99_RISE_ABOVE_PCT / 100)) return a;
  }
  return null;
}

/** 92 k, 1.2 M, 830 */
export function iopsText(iops: number): string {
  if (iops >= 1e6) return `${Number((iops / 1e6).toPrecision(2))} M`;
  if (iops >= 1e3) return `${Number((iops / 1e3).toPrecision(iops >= 1e5 ? 3 : 2))} k`;
  return String(Math.round(iops));
}

/** 1.9 ms, 240 µs, 800 ns */
export function latencyText(ns: number): string {
  if (ns >= 1e9) return `${Number((ns / 1e9).toPrecision(2))} s`;
  if (ns >= 1e6) return `${Number((ns / 1e6).toPrecision(2))} ms`;
  if (ns >= 1e3) return `${Number((ns / 1e3).toPrecision(3))} µs`;
  return `${Math.round(ns)} ns`;
}

/**
 * The saturation over the whole grid and along each curve (a job count at a block size). With
 * several block sizes the whole-grid point is the smallest block size's (IOPS is its figure).
 */
export function computeSaturation(points: readonly Point[]): SweepSaturation {
  const ok = points.filter(measured);
  const sizes = [...new Set(points.map((p) => p.blockSizeKiB))].sort((a, b) => a - b);
  const perCurve: SweepSaturation["perCurve"] = [];
  for (const blockSizeKiB of sizes) {
    for (const numjobs of [...new Set(points.map((p) => p.numjobs))].sort((a, b) => a - b)) {
      if (!points.some((p) => p.numjobs === numjobs && p.blockSizeKiB === blockSizeKiB)) continue;
      const hit = saturationOn(curve(ok.filter((p) => p.numjobs === numjobs && p.blockSizeKiB === blockSizeKiB)));
      perCurve.push({ numjobs, blockSizeKiB, iodepth: hit?.iodepth ?? null });
    }
  }
  const bs = sizes.find((s) => ok.some((p) => p.blockSizeKiB === s));
  const whole = curve(ok.filter((p) => p.blockSizeKiB === bs));
  const at = sizes.length > 1 && bs !== undefined ? ` at ${bs} KiB` : "";
  const base = { rule: SATURATION_RULE, perCurve };
  if (whole.length < 2) {
    return { ...base, point: null, iops: null, latP99Ns: null, sentence: `Not enough finished points: the rule compares at least two loads and ${whole.length === 0 ? "none has" : "one has"} finished without a flag.` };
  }
  const hit = saturationOn(whole);
  if (hit) {
    const point = { iodepth: hit.iodepth, numjobs: hit.numjobs, blockSizeKiB: hit.blockSizeKiB };
    return { ...base, point, iops: hit.iops, latP99Ns: hit.latP99Ns, sentence: `This device saturates at ${pointLabel(point)}${at}: ${iopsText(hit.iops)} IOPS at p99 ${latencyText(hit.latP99Ns)}.` };
  }
  const a = whole[whole.length - 2]!;
  const b = whole[whole.length - 1]!;
  const growth = ((b.iops / a.iops - 1) * 100).toFixed(0);
  return {
    ...base,
    point: null,
    iops: null,
    latP99Ns: null,
    sentence: `No saturation within the grid${at}: IOPS still grew ${growth} % from ${pointLabel(a)} (${iopsText(a.iops)}) to ${pointLabel(b)} (${iopsText(b.iops)}), p99 ${latencyText(a.latP99Ns)} to ${latencyText(b.latP99Ns)}.`,
  };
}
