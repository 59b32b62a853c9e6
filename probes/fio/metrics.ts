// The fio metrics both readers (JSON and the normal text report) produce, so a run reads the
// same whichever form a user brings. Latencies are in ns, bandwidth in bytes/s.
import type { Measurement } from "../core/types";

/** "99.000000" / "99.00" / "99.90th" → "clat_p99", "clat_p99.9". */
export function percentileMetric(kind: "clat" | "lat" | "slat", key: string): string | null {
  const n = Number(key.replace(/th$/, ""));
  if (!Number.isFinite(n) || n <= 0 || n > 100) return null;
  return `${kind}_p${Number(n.toFixed(6))}`;
}

export function push(out: Measurement[], metric: string, value: number | null, unit: string, dims: Record<string, string>): void {
  if (value === null || !Number.isFinite(value)) return;
  out.push({ metric, value, unit, dims });
}

/** Dims of each job: jobs that share a name (numjobs=N without group_reporting) are numbered. */
export function jobDims(names: string[]): Record<string, string>[] {
  const total = new Map<string, number>();
  for (const n of names) total.set(n, (total.get(n) ?? 0) + 1);
  const seen = new Map<string, number>();
  return names.map((name): Record<string, string> => {
    const i = seen.get(name) ?? 0;
    seen.set(name, i + 1);
    return (total.get(name) ?? 0) > 1 ? { job: name, instance: String(i + 1) } : { job: name };
  });
}
