// One shape for what the machine did over time, whichever way it was recorded: the agent's
// telemetry samples or a sar run (launched, imported, or a host's history day). Diagnosis rules
// read only these series:
//   cpu.iowait, cpu.steal                   %
//   device.util (%), device.aquSz, device.rkBs
//   memory.dirtyKb                          kB dirty (sar: kbdirty)
//   writeback.pendingKb                     kB dirty + under write-back (what the kernel limits)
//   writeback.backgroundLimitKb             kB, the kernel's own background threshold (telemetry)
//   writeback.dirtiedKBs, writtenKBs        kB/s dirtied and written (telemetry)
//   paging.pgscand, paging.pgscank          pages/s
//   numa.maxFreeKb                          kB free on the NUMA node with the most (only with > 1 node)
//   probe.readKBs                           the probe's own read rate, from its result
import type { TelemetrySample } from "../../probes/telemetry/types";

export interface TimelinePoint {
  /** "12 s" for telemetry, the sample's clock time for sar. */
  label: string;
  values: Record<string, number>;
}

export interface Timeline {
  points: TimelinePoint[];
}

export interface TelemetryContext {
  /** The probe's read throughput in kB/s, for reads only. */
  probeReadKBs?: number | null;
}

export function timelineFromTelemetry(samples: readonly TelemetrySample[], ctx: TelemetryContext = {}): Timeline {
  return {
    points: samples.map((s) => {
      const v: Record<string, number> = {
        "cpu.iowait": s.cpu.iowait,
        "cpu.steal": s.cpu.steal,
        "memory.dirtyKb": s.memory.dirty,
        "paging.pgscand": s.paging.pgscand,
        "paging.pgscank": s.paging.pgscank,
      };
      if (s.device) Object.assign(v, { "device.util": s.device.util, "device.aquSz": s.device.aquSz, "device.rkBs": s.device.rkBs });
      if (s.writeback) {
        Object.assign(v, {
          "writeback.pendingKb": s.memory.dirty + s.memory.writeback,
          "writeback.backgroundLimitKb": s.writeback.backgroundLimitKb,
          "writeback.dirtiedKBs": s.writeback.dirtiedKBs,
          "writeback.writtenKBs": s.writeback.writtenKBs,
        });
      }
      const nodes = Object.values(s.numaFree ?? {});
      if (nodes.length > 1) v["numa.maxFreeKb"] = Math.max(...nodes);
      if (ctx.probeReadKBs != null && ctx.probeReadKBs > 0) v["probe.readKBs"] = ctx.probeReadKBs;
      return { label: `${Math.round(s.t)} s`, values: v };
    }),
  };
}

interface SarMeasurement {
  metric: string;
  value: number;
  dims: Record<string, string | number>;
}

/** sar column → series; per-device columns keep the busiest device of each sample. */
const SAR_SERIES: Record<string, { series: string; section?: string; pick: "only" | "max" }> = {
  "%iowait": { series: "cpu.iowait", section: "cpu", pick: "only" },
  "%steal": { series: "cpu.steal", section: "cpu", pick: "only" },
  "pgscand/s": { series: "paging.pgscand", pick: "only" },
  "pgscank/s": { series: "paging.pgscank", pick: "only" },
  kbdirty: { series: "memory.dirtyKb", pick: "only" },
  "%util": { series: "device.util", section: "disk", pick: "max" },
  "aqu-sz": { series: "device.aquSz", section: "disk", pick: "max" },
  "avgqu-sz": { series: "device.aquSz", section: "disk", pick: "max" },
};

/** Rows that summarise a report rather than sample it (Average, Minimum, Maximum, Summary). */
const isSampleTime = (dims: Record<string, string | number>) =>
  dims.stat === undefined && typeof dims.time === "string" && /\d/.test(dims.time) && !/average|summary|min|max/i.test(dims.time);

export function timelineFromSar(measurements: readonly SarMeasurement[]): Timeline {
  const byTime = new Map<string, Record<string, number>>();
  for (const m of measurements) {
    if (!isSampleTime(m.dims) || !Number.isFinite(m.value)) continue;
    const key = [m.dims.date, m.dims.time].filter((x) => x !== undefined).join(" ");
    const map = SAR_SERIES[m.metric];
    if (!map) continue;
    if (map.section === "cpu" && m.dims.cpu !== undefined && m.dims.cpu !== "all") continue;
    const values = byTime.get(key) ?? {};
    byTime.set(key, values);
    const prev = values[map.series];
    values[map.series] = map.pick === "max" && prev !== undefined ? Math.max(prev, m.value) : m.value;
  }
  return { points: [...byTime].map(([label, values]) => ({ label, values })) };
}
