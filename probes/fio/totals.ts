// A mixed job's totals: fio reports reads and writes of a randrw job apart; what the device did
// is both added up (bench-fio and fio-plot users ask for it).
import type { Measurement } from "../core/types";

export interface MixedTotal {
  job: string;
  instance?: string;
  metric: string;
  value: number;
  unit: string;
}

/** Per job (and instance) that did both reads and writes: the sum of `metric` ("bw" or "iops") over both. */
export function mixedTotals(ms: readonly Measurement[], metric: string): MixedTotal[] {
  const byJob = new Map<string, { job: string; instance?: string; read?: Measurement; write?: Measurement }>();
  for (const m of ms) {
    if (m.metric !== metric || (m.dims.direction !== "read" && m.dims.direction !== "write") || typeof m.dims.step === "string") continue;
    const job = String(m.dims.job ?? "");
    const instance = m.dims.instance === undefined ? undefined : String(m.dims.instance);
    const key = `${job}|${instance ?? ""}`;
    const entry = byJob.get(key) ?? { job, ...(instance !== undefined ? { instance } : {}) };
    entry[m.dims.direction] = m;
    byJob.set(key, entry);
  }
  return [...byJob.values()].flatMap((e) =>
    e.read && e.write && e.read.value > 0 && e.write.value > 0
      ? [{ job: e.job, ...(e.instance !== undefined ? { instance: e.instance } : {}), metric, value: e.read.value + e.write.value, unit: e.read.unit }]
      : [],
  );
}
