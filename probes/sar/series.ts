// sar samples as comparable time series: elapsed seconds since the run's first sample, the
// paging, disk, memory and CPU columns people read when tuning reclaim and writeback, and the
// vm efficiency computed from the raw counters (sysstat ≥ 12.7.5 no longer prints %vmeff).
import type { Measurement, NormalisedResult } from "../core/types";

export interface SarMetricDef {
  id: string;
  title: string;
  /** Unit shown on the axis and in the table. */
  unit: string;
  section: "paging" | "disk" | "memory" | "cpu";
}

export const VM_EFFICIENCY = "vm efficiency";

/** The charts of a sar comparison, in reading order. */
export const SAR_METRICS: readonly SarMetricDef[] = [
  { id: "pgscank/s", title: "pgscank/s — pages scanned by kswapd", unit: "pages/s", section: "paging" },
  { id: "pgscand/s", title: "pgscand/s — pages scanned directly by allocating tasks", unit: "pages/s", section: "paging" },
  { id: "pgsteal/s", title: "pgsteal/s — pages reclaimed", unit: "pages/s", section: "paging" },
  { id: VM_EFFICIENCY, title: "vm efficiency = pgsteal ÷ (pgscank + pgscand)", unit: "%", section: "paging" },
  { id: "majflt/s", title: "majflt/s — major faults (read from disk)", unit: "faults/s", section: "paging" },
  { id: "%util", title: "%util — time the device was busy", unit: "%", section: "disk" },
  { id: "await", title: "await — mean I/O time incl. queueing", unit: "ms", section: "disk" },
  { id: "kbdirty", title: "kbdirty — dirty page cache waiting for writeback", unit: "kB", section: "memory" },
  { id: "%iowait", title: "%iowait — CPU idle with I/O outstanding", unit: "%", section: "cpu" },
];

/** "HH:MM:SS" → seconds since midnight; null for anything else. */
export function secondsOfDay(time: string): number | null {
  const m = /^(\d{1,2}):(\d{2}):(\d{2})$/.exec(time);
  if (!m) return null;
  return Number(m[1]) * 3600 + Number(m[2]) * 60 + Number(m[3]);
}

/**
 * Elapsed seconds of each sample time since the first one, in order of appearance. A time
 * earlier than the previous one means the run crossed midnight: a day is added.
 */
export function elapsedSeconds(times: readonly string[]): Map<string, number> {
  const out = new Map<string, number>();
  let first: number | null = null;
  let prev: number | null = null;
  let dayOffset = 0;
  for (const t of times) {
    if (out.has(t)) continue;
    const s = secondsOfDay(t);
    if (s === null) continue;
    if (prev !== null && s < prev) dayOffset += 86_400;
    prev = s;
    const abs = s + dayOffset;
    first ??= abs;
    out.set(t, abs - first);
  }
  return out;
}

/**
 * vm efficiency in %: 100 × pgsteal ÷ (pgscank + pgscand), the share of scanned pages that
 * reclaim could free. Null when nothing was scanned (sar printed 0.00 there, which reads as
 * "reclaim failed" when it means "no reclaim").
 */
export function vmEfficiency(pgsteal: number, pgscank: number, pgscand: number): number | null {
  const scanned = pgscank + pgscand;
  if (!(scanned > 0)) return null;
  return (100 * pgsteal) / scanned;
}

export interface SarSeries {
  /** Device the disk columns were taken from. */
  device: string | null;
  /** Per metric id: points on elapsed seconds (null = no value at that sample). */
  points: Record<string, { t: number; v: number | null }[]>;
  /** Per metric id: the run's figure for the table (mean of samples; vm efficiency as Σsteal ÷ Σscan). */
  summary: Record<string, number | null>;
  samples: number;
}

const timed = (m: Measurement) => typeof m.dims.time === "string" && m.dims.time !== "average";

/** The device whose disk rows are drawn: the run's target device if sar reported it, else the busiest. */
export function pickDevice(ms: readonly Measurement[], targetDevice: string | null): string | null {
  const disk = ms.filter((m) => m.dims.section === "disk" && timed(m) && typeof m.dims.device === "string");
  const devices = [...new Set(disk.map((m) => String(m.dims.device)))];
  if (devices.length === 0) return null;
  if (targetDevice && devices.includes(targetDevice)) return targetDevice;
  const util = new Map<string, number>();
  for (const m of disk) if (m.metric === "%util") util.set(String(m.dims.device), (util.get(String(m.dims.device)) ?? 0) + m.value);
  return [...devices].sort((a, b) => (util.get(b) ?? 0) - (util.get(a) ?? 0))[0]!;
}

/** The comparable sar series of one run. */
export function sarSeries(result: NormalisedResult, targetDevice: string | null): SarSeries {
  const ms = result.measurements.filter(timed);
  const clock = elapsedSeconds(ms.map((m) => String(m.dims.time)));
  const device = pickDevice(ms, targetDevice);
  const byMetric = new Map<string, Map<number, number>>();
  const put = (metric: string, t: number, v: number) => {
    let s = byMetric.get(metric);
    if (!s) byMetric.set(metric, (s = new Map()));
    s.set(t, v);
  };
  for (const m of ms) {
    const t = clock.get(String(m.dims.time));
    if (t === undefined) continue;
    if (m.dims.section === "disk") {
      if (m.dims.device !== device) continue;
    } else if (m.dims.section === "cpu") {
      if (m.dims.cpu !== undefined && m.dims.cpu !== "all") continue;
    } else if (m.dims.section !== "paging" && m.dims.section !== "memory") continue;
    put(m.metric, t, m.value);
  }
  const times = [...new Set(clock.values())].sort((a, b) => a - b);
  const points: SarSeries["points"] = {};
  const summary: SarSeries["summary"] = {};
  const steal = byMetric.get("pgsteal/s");
  const scanK = byMetric.get("pgscank/s");
  const scanD = byMetric.get("pgscand/s");
  for (const def of SAR_METRICS) {
    if (def.id === VM_EFFICIENCY) {
      if (steal && scanK && scanD) {
        points[def.id] = times.filter((t) => steal.has(t)).map((t) => ({ t, v: vmEfficiency(steal.get(t)!, scanK.get(t) ?? 0, scanD.get(t) ?? 0) }));
        const sum = (s: Map<number, number>) => [...s.values()].reduce((a, b) => a + b, 0);
        summary[def.id] = vmEfficiency(sum(steal), sum(scanK), sum(scanD));
      } else if (byMetric.has("%vmeff")) {
        // Only %vmeff itself (an export without the counters): sar's 0 means "nothing scanned".
        const eff = byMetric.get("%vmeff")!;
        points[def.id] = times.filter((t) => eff.has(t)).map((t) => ({ t, v: eff.get(t) || null }));
        const vals = [...eff.values()].filter((v) => v > 0);
        summary[def.id] = vals.length ? vals.reduce((a, b) => a + b, 0) / vals.length : null;
      }
      continue;
    }
    const s = byMetric.get(def.id);
    if (!s) continue;
    points[def.id] = times.filter((t) => s.has(t)).map((t) => ({ t, v: s.get(t)! }));
    const vals = [...s.values()];
    summary[def.id] = vals.length ? vals.reduce((a, b) => a + b, 0) / vals.length : null;
  }
  return { device, points, summary, samples: times.length };
}

/** More samples than this per run and chart are averaged into buckets: the chart stays light and readable. */
export const MAX_SAR_POINTS = 600;

/** Bucket width (whole seconds) that keeps `lastT` seconds of samples within MAX_SAR_POINTS points; 1 = no bucketing. */
export function bucketWidth(lastT: number): number {
  return Math.max(1, Math.ceil((lastT + 1) / MAX_SAR_POINTS));
}

/**
 * Means of the points in buckets of `width` seconds, placed at the bucket's start (so every run's
 * buckets line up); null values are left out, a bucket with only nulls stays null.
 */
export function bucketPoints(points: readonly { t: number; v: number | null }[], width: number): { t: number; v: number | null }[] {
  if (width <= 1) return [...points];
  const buckets = new Map<number, { sum: number; n: number }>();
  for (const p of points) {
    const t = Math.floor(p.t / width) * width;
    const b = buckets.get(t) ?? { sum: 0, n: 0 };
    if (p.v !== null) {
      b.sum += p.v;
      b.n++;
    }
    buckets.set(t, b);
  }
  return [...buckets].sort((a, b) => a[0] - b[0]).map(([t, b]) => ({ t, v: b.n ? b.sum / b.n : null }));
}
