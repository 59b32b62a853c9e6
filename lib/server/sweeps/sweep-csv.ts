import type { SweepView } from "../../sweeps/types";

/**
 * One row per grid point (grid order) with its figures in base units (IOPS, bytes/s, ns, s) and
 * whether fio found it steady; the first line is the header, so a spreadsheet reads the points
 * as a table. The saturation sentence and the fio version are not rows: they are in the JSON.
 */
export function sweepCsv(v: SweepView, cell: (x: string | number | null) => string): string {
  const header = ["iodepth", "numjobs", "block_size_kib", "order", "status", "iops", "bandwidth_bps", "lat_p50_ns", "lat_p99_ns", "lat_p99_9_ns", "runtime_s", "steady_enabled", "steady_reached", "steady_after_s", "run_id", "problem"];
  const rows = v.points.map((p) => [
    p.iodepth,
    p.numjobs,
    p.blockSizeKiB,
    p.order + 1,
    p.status,
    p.iops,
    p.bandwidthBps,
    p.latP50Ns,
    p.latP99Ns,
    p.latP999Ns,
    p.runtimeSec,
    p.steady.enabled ? "true" : "false",
    p.steady.reached === null ? null : p.steady.reached ? "true" : "false",
    p.steady.afterSec,
    p.runId,
    p.problem,
  ]);
  return [header, ...rows].map((r) => r.map(cell).join(",")).join("\r\n") + "\r\n";
}
