// What the machine did over a run, summed from the agent's 1/s telemetry samples.
import type { TelemetrySample } from "../telemetry/types";

const KIB = 1024;

export interface DeviceTotals {
  /** Bytes the target's block device read and wrote while the probe ran. */
  readBytes: number;
  writeBytes: number;
  /** Seconds the samples cover. */
  seconds: number;
}

/**
 * A sample's rates are per second over the interval since the one before (the first: since the
 * probe started), and the sampler takes one last sample of the partial second when the probe
 * exits (probes/agent/telemetry-loop.ts): each rate is weighted by its own interval, so that last
 * sample counts for 0.1 s, not for a whole second. The rates come from /proc/diskstats' "sectors
 * read" and "sectors written", which count 512-byte units whatever the device's block size
 * (kernel Documentation/admin-guide/iostats.rst), converted to kB = 1024 bytes as iostat does.
 * Null when no sample has a device (tmpfs, or the device could not be found).
 */
export function deviceTotals(samples: readonly TelemetrySample[]): DeviceTotals | null {
  if (!samples.some((s) => s.device)) return null;
  let prev = 0;
  let readBytes = 0;
  let writeBytes = 0;
  for (const s of [...samples].sort((a, b) => a.t - b.t)) {
    const dt = Math.max(0, s.t - prev);
    prev = s.t;
    if (!s.device) continue;
    readBytes += s.device.rkBs * KIB * dt;
    writeBytes += s.device.wkBs * KIB * dt;
  }
  return { readBytes, writeBytes, seconds: prev };
}

/** 1,024 MiB / 3.2 MiB / 0 MiB: byte counts in sentences, the unit of the run page's throughput. */
export function mib(bytes: number): string {
  const v = bytes / (KIB * KIB);
  const digits = v >= 100 || v === 0 ? 0 : v >= 10 ? 1 : 2;
  return `${v.toLocaleString("en-US", { maximumFractionDigits: digits, minimumFractionDigits: 0 })} MiB`;
}

export function seconds(s: number): string {
  return `${s.toLocaleString("en-US", { maximumFractionDigits: s < 10 ? 2 : 1 })} s`;
}
