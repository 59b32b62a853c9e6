import { guardProgress, makeProgress } from "../core/progress";
import type { Progress } from "../core/types";
import type { SarParams } from "./params";
import { parseSarText } from "./parse-text";

/**
 * One sample is one interval. With several sections (or devices) an interval prints several rows
 * with the same time, so samples are counted as changes of the row time, not as rows.
 */
export const extractSarProgress = guardProgress((output: string, params: SarParams): Progress | null => {
  const { sampleTimes } = parseSarText(output);
  let samples = 0;
  let previous: string | null = null;
  for (const t of sampleTimes) {
    if (t !== previous) samples++;
    previous = t;
  }
  const done = Math.min(samples, params.count);
  return makeProgress(done, params.count, "samples", `${done} of ${params.count} samples (every ${params.interval} s)`);
});
