// A sweep's grid: its points in grid order, their labels, and the order they run in.
import type { SweepGrid, SweepPointKey } from "./types";

/** Every point in grid order: iodepth, then numjobs, then block size, ascending. */
export function gridPoints(grid: SweepGrid): SweepPointKey[] {
  const out: SweepPointKey[] = [];
  for (const iodepth of grid.iodepths) for (const numjobs of grid.numjobs) for (const blockSizeKiB of grid.blockSizesKiB) out.push({ iodepth, numjobs, blockSizeKiB });
  return out;
}

/** The load a point puts on the device: I/Os it keeps in flight at most. */
export const loadOf = (p: Pick<SweepPointKey, "iodepth" | "numjobs">) => p.iodepth * p.numjobs;

/** "QD 16 × 4 jobs", with " · 64 KiB" when the block size is swept. */
export function pointLabel(p: SweepPointKey, withBlockSize = false): string {
  return `QD ${p.iodepth} × ${p.numjobs} job${p.numjobs === 1 ? "" : "s"}${withBlockSize ? ` · ${p.blockSizeKiB} KiB` : ""}`;
}

/**
 * The order a sweep's points run in, as indices into gridPoints(grid). Not ascending load: a
 * device drifts over a sweep (it heats up, an SSD's write cache fills, background garbage
 * collection starts), and points run from light to heavy would read that drift as an effect of
 * load. The points are ranked by load and taken in bit-reversed (van der Corput) order of their
 * rank (0, 8, 4, 2, 6, 1, 5, 3, 7 for nine): every stretch of the sweep visits light and heavy
 * loads alike, so drift spreads over the curve instead of bending it. Deterministic, so the order
 * can be told before the sweep starts.
 */
export function interleavedOrder(points: readonly SweepPointKey[]): number[] {
  const byLoad = points.map((p, i) => ({ p, i })).sort((a, b) => loadOf(a.p) - loadOf(b.p) || a.p.blockSizeKiB - b.p.blockSizeKiB || a.i - b.i).map((x) => x.i);
  const n = byLoad.length;
  let bits = 0;
  while (1 << bits < n) bits++;
  const order: number[] = [];
  for (let k = 0; k < 1 << bits; k++) {
    let r = 0;
    for (let b = 0; b < bits; b++) if (k & (1 << b)) r |= 1 << (bits - 1 - b);
    if (r < n) order.push(byLoad[r]!);
  }
  return order;
}
