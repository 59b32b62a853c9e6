import { headlineOf, type HeadlineValue } from "../core/probe";
import type { NormalisedResult } from "../core/types";

/**
 * The columns that say whether the storage kept up, as the mean over the samples (sar's own
 * Average row): disk await and %util per device, CPU %iowait, direct-reclaim scanning, dirty memory.
 */
const CHOSEN: Record<string, Record<string, string>> = {
  disk: { await: "average wait of disk requests", "%util": "disk utilisation" },
  cpu: { "%iowait": "CPU time waiting for I/O" },
  paging: { "pgscand/s": "direct-reclaim page scanning" },
  memory: { kbdirty: "dirty memory" },
};

export function sarHeadline(result: NormalisedResult): HeadlineValue[] {
  return result.measurements.flatMap((m) => {
    const noun = CHOSEN[String(m.dims.section)]?.[m.metric];
    if (!noun || m.dims.time !== "average" || (m.dims.cpu !== undefined && m.dims.cpu !== "all") || !(m.value > 0)) return [];
    const device = m.dims.device ? ` of ${m.dims.device}` : "";
    return [headlineOf(m, { noun: `${noun}${device}`, betterWhen: "lower" })];
  });
}
