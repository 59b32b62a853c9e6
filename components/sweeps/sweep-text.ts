// Words about a sweep shared by its charts, cards, form and overlay.
import type { SteadyStateSpec, SweepView } from "@/lib/sweeps/types";

/** "randread, 4 KiB, libaio, direct, 1024 MiB file, 30 s points". */
export function workloadText(view: Pick<SweepView, "workload" | "grid">): string {
  const w = view.workload;
  const mix = w.rw === "randrw" && w.rwmixread !== null ? ` (${w.rwmixread} % reads)` : "";
  const bs = view.grid.blockSizesKiB.length === 1 ? `${view.grid.blockSizesKiB[0]} KiB` : `${view.grid.blockSizesKiB.join("/")} KiB`;
  return `${w.rw}${mix}, ${bs}, ${w.ioengine}, ${w.direct ? "direct" : "buffered"}, ${w.sizeMiB} MiB file, ${w.pointRuntimeSec} s points`;
}

const METRIC: Record<SteadyStateSpec["metric"], string> = {
  iops: "IOPS within",
  iops_slope: "the IOPS slope within",
  bw: "bandwidth within",
  bw_slope: "the bandwidth slope within",
};

/** fio's steadystate criterion in words: "a point ends early once IOPS stay within 5 % of their mean over 10 s (after 5 s ramp)". */
export function steadyText(s: SteadyStateSpec | null): string {
  if (!s) return "Steady state off: every point runs its whole time limit.";
  return `A point ends early once ${METRIC[s.metric]} ${s.limitPercent} % of the mean over ${s.windowSec} s${s.rampSec > 0 ? ` (after a ${s.rampSec} s ramp)` : ""} (fio's steadystate).`;
}
