// sar columns as the series of a diagnosis timeline (the names lib/diagnosis/timeline.ts lists).
import type { Timeline } from "../core/view";

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

/** A sar run as a diagnosis timeline (lib/diagnosis reads only these series). */
export function timelineFromSar(measurements: readonly SarMeasurement[]): Timeline {
  const byTime = new Map<string, Record<string, number>>();
  for (const m of measurements) {
    if (!isSampleTime(m.dims) || !Number.isFinite(m.value)) continue;
    // "day" (1, 2, …) is what the sar parser adds when a report crosses midnight.
    const key = [m.dims.date, m.dims.day === undefined ? undefined : `day ${m.dims.day}`, m.dims.time].filter((x) => x !== undefined).join(" ");
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
