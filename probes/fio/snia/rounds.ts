import type { Measurement } from "../../core/types";

/**
 * A round's IOPS: fio's average over the round, read and write added (a mixed workload's total),
 * from the JSON report's per-direction `iops`; null when the report has none.
 */
export function roundIops(ms: readonly Measurement[]): number | null {
  const sides = ms.filter((m) => m.metric === "iops" && (m.dims.direction === "read" || m.dims.direction === "write"));
  return sides.length ? sides.reduce((a, m) => a + m.value, 0) : null;
}
