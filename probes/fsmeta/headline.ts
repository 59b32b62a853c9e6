import { headlineOf, type HeadlineValue } from "../core/probe";
import type { NormalisedResult } from "../core/types";

/** Files per second of each step (create, stat, delete). */
export function fsmetaHeadline(result: NormalisedResult): HeadlineValue[] {
  return result.measurements.flatMap((m) => (m.metric === "rate" && m.value > 0 ? [headlineOf(m, { noun: `${m.dims.op ?? "metadata"} rate`, betterWhen: "higher" })] : []));
}
