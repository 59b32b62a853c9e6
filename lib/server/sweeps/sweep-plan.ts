// A sweep as stored on its experiment row: kind "sweep", one arm per grid point (its label and
// full fio parameters), and `sweep` = the grid, the steady-state criterion and the run order.
import type { SteadyStateSpec, SweepGrid } from "../../sweeps/types";

export interface StoredSweep {
  grid: SweepGrid;
  steadyState: SteadyStateSpec | null;
  /** Grid indices (= arm indices) in the order their runs were queued (lib/sweeps/grid.ts). */
  order: number[];
}

export const isSweep = (kind: string | null | undefined) => kind === "sweep";

export function readSweep(json: unknown): StoredSweep | null {
  if (typeof json !== "object" || json === null) return null;
  const s = json as Partial<StoredSweep>;
  const nums = (v: unknown): number[] => (Array.isArray(v) ? v.filter((x): x is number => typeof x === "number") : []);
  if (!s.grid) return null;
  return {
    grid: { iodepths: nums(s.grid.iodepths), numjobs: nums(s.grid.numjobs), blockSizesKiB: nums(s.grid.blockSizesKiB) },
    steadyState: s.steadyState ?? null,
    order: nums(s.order),
  };
}
