import { MAX_DIM_CHARS } from "../core/schemas";
import type { Measurement } from "../core/types";
import { jobDims, percentileMetric, push } from "./metrics";
import { steadyStateMeasurements } from "./steady-state";

type Json = unknown;
const isObject = (v: Json): v is Record<string, Json> => typeof v === "object" && v !== null && !Array.isArray(v);
const num = (v: Json): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);

export const DIRECTIONS = ["read", "write", "trim"] as const;
// json+ writes one bin per latency value that occurred; a pathological run could have thousands.
const MAX_BINS_PER_DIRECTION = 2000;

function percentiles(out: Measurement[], kind: "clat" | "lat", stat: Json, toNs: number, dims: Record<string, string>) {
  if (!isObject(stat) || !isObject(stat.percentile)) return;
  for (const [key, v] of Object.entries(stat.percentile)) {
    const metric = percentileMetric(kind, key);
    const value = num(v);
    if (metric && value !== null) push(out, metric, value * toNs, "ns", dims);
  }
}

/**
 * One direction of a job. fio 3.x reports ns and bytes (lat_ns, bw_bytes); fio 2.x µs and KiB/s
 * (lat, bw). Directions the job did not use are kept: fio reports them, as zeros.
 */
export function directionMetrics(d: Record<string, Json>, dims: Record<string, string>): { measurements: Measurement[]; bins: number } {
  const out: Measurement[] = [];
  const v3 = isObject(d.lat_ns) || isObject(d.clat_ns) || d.bw_bytes !== undefined;
  const toNs = v3 ? 1 : 1000;
  const stat = (name: "lat" | "clat" | "slat") => (v3 ? d[`${name}_ns`] : d[name]);
  const bw = num(d.bw_bytes) ?? (num(d.bw) !== null ? (num(d.bw) as number) * 1024 : null);
  push(out, "bw", bw, "B/s", dims);
  push(out, "iops", num(d.iops), "1/s", dims);
  for (const name of ["lat", "clat", "slat"] as const) {
    const s = stat(name);
    const mean = isObject(s) ? num(s.mean) : null;
    push(out, `${name}_mean`, mean === null ? null : mean * toNs, "ns", dims);
  }
  percentiles(out, "clat", stat("clat"), toNs, dims);
  percentiles(out, "lat", stat("lat"), toNs, dims);
  // What the direction moved and for how long (fio 3.x io_bytes; 2.x io_bytes too, runtime in ms
  // in both): the checks against the run's telemetry hold these against the device's counters.
  push(out, "io_bytes", num(d.io_bytes), "B", dims);
  push(out, "runtime", num(d.runtime), "ms", dims);
  // json+: latency histogram, {"<latency in ns>": count}.
  let bins = 0;
  const clat = stat("clat");
  if (isObject(clat) && isObject(clat.bins)) {
    for (const [ns, count] of Object.entries(clat.bins)) {
      const c = num(count);
      if (c === null || !/^\d+$/.test(ns) || bins >= MAX_BINS_PER_DIRECTION) continue;
      out.push({ metric: "clat_bin", value: c, unit: "", dims: { ...dims, clat_ns: Number(ns) } });
      bins++;
    }
  }
  return { measurements: out, bins };
}

const BUCKET_SCALES = { latency_ns: 1, latency_us: 1e3, latency_ms: 1e6 } as const;

/**
 * fio's latency distribution of a job (all directions): the share of I/Os in percent per bucket,
 * "250" under latency_us meaning above the previous bound up to 250 µs; ">=2000" under
 * latency_ms is everything from 2 s on. Stored as lat_share with the bound in ns.
 */
function latencyBuckets(out: Measurement[], job: Record<string, Json>, dims: Record<string, string>) {
  for (const [field, scale] of Object.entries(BUCKET_SCALES)) {
    const buckets = job[field];
    if (!isObject(buckets)) continue;
    for (const [key, v] of Object.entries(buckets)) {
      const share = num(v);
      const bound = /^(>=)?(\d+)$/.exec(key);
      if (share === null || !bound) continue;
      const ns = Number(bound[2]) * scale;
      out.push({ metric: "lat_share", value: share, unit: "%", dims: { ...dims, ...(bound[1] ? { lat_ge_ns: ns } : { lat_le_ns: ns }) } });
    }
  }
}

export interface FioJsonResult {
  measurements: Measurement[];
  warnings: string[];
  failed: string[];
  transferred: boolean;
  jsonPlus: boolean;
}

const ERRNO: Record<number, string> = {
  2: "No such file or directory", 5: "Input/output error", 12: "Cannot allocate memory", 13: "Permission denied",
  22: "Invalid argument", 25: "Inappropriate ioctl for device", 28: "No space left on device", 30: "Read-only file system",
  95: "Operation not supported",
};

// These engines move no data: they count one fake block per file opened, stat'ed or unlinked
// (the fsmeta probe reads them as files per second), so a "bandwidth" of theirs would be false.
const NO_DATA_ENGINES = new Set(["filecreate", "filestat", "filedelete", "exec"]);
const engineOf = (job: Record<string, Json>) => {
  const options = job["job options"];
  return isObject(options) && typeof options.ioengine === "string" ? options.ioengine : null;
};

export function readJobs(jobs: Json[]): FioJsonResult {
  const measurements: Measurement[] = [];
  const warnings: string[] = [];
  const failed: string[] = [];
  let transferred = false;
  let jsonPlus = false;
  const objects = jobs.filter(isObject).filter((job) => !NO_DATA_ENGINES.has(engineOf(job) ?? ""));
  const names = objects.map((job) => (typeof job.jobname === "string" ? job.jobname.slice(0, MAX_DIM_CHARS) : "job"));
  const dimsOf = jobDims(names);
  objects.forEach((job, i) => {
    const base = dimsOf[i] ?? { job: "job" };
    const name = base.job;
    const error = num(job.error) ?? 0;
    if (error !== 0) failed.push(`fio job "${name}" failed with error ${error}${ERRNO[error] ? ` (${ERRNO[error]})` : ""}`);
    if (isObject(job.mixed)) {
      // unified_rw_reporting: one "mixed" direction instead of read and write.
      const r = directionMetrics(job.mixed, { ...base, direction: "mixed" });
      measurements.push(...r.measurements);
      if ((num(job.mixed.io_bytes) ?? 0) > 0) transferred = true;
      jsonPlus ||= r.bins > 0;
    }
    for (const direction of DIRECTIONS) {
      const d = job[direction];
      if (!isObject(d)) continue;
      if ((num(d.io_bytes) ?? 0) > 0) transferred = true;
      const r = directionMetrics(d, { ...base, direction });
      measurements.push(...r.measurements);
      jsonPlus ||= r.bins > 0;
    }
    latencyBuckets(measurements, job, base);
    measurements.push(...steadyStateMeasurements(job, base));
    // fsync/fdatasync latencies (3.x "sync": {"total_ios", "lat_ns"}), when the job synced.
    const sync = job.sync;
    if (isObject(sync) && (num(sync.total_ios) ?? 0) > 0 && isObject(sync.lat_ns)) {
      const dims = { ...base, direction: "sync" };
      push(measurements, "lat_mean", num(sync.lat_ns.mean), "ns", dims);
      percentiles(measurements, "lat", sync.lat_ns, 1, dims);
    }
  });
  return { measurements, warnings, failed, transferred, jsonPlus };
}
