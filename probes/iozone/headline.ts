import { headlineOf, type HeadlineValue } from "../core/probe";
import type { NormalisedResult } from "../core/types";
import { IOZONE_OPERATIONS } from "./metrics";

const TITLES: Record<string, string> = Object.fromEntries(IOZONE_OPERATIONS.map((o) => [o.id, o.title]));

/** Every operation at every file and record size of the table (and throughput mode's totals). */
export function iozoneHeadline(result: NormalisedResult): HeadlineValue[] {
  return result.measurements.flatMap((m) => {
    const op = TITLES[m.metric] ?? (m.metric.startsWith("throughput_") ? `${m.metric.slice("throughput_".length).replace(/_/g, " ")} (all processes)` : null);
    if (!op || !(m.value > 0)) return [];
    return [headlineOf(m, { noun: `${op} throughput`, betterWhen: "higher" })];
  });
}
