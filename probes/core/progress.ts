// A probe's progress from its output, for the live view: the helpers every extractor and live
// tracker use. Kept apart from probe.ts (the definition, with guardParse) so the browser's live
// catalog loads them without anything of the parsers.
import { stripAnsi } from "./text";
import type { Progress } from "./types";

/** Last line of defence for "never throws", as guardParse is for parsers: no progress rather than a crash. */
export function guardProgress<P>(
  extract: (output: string, params: P) => Progress | null,
): (output: string, params: P) => Progress | null {
  return (output, params) => {
    if (typeof output !== "string") return null;
    try {
      return extract(stripAnsi(output), params);
    } catch {
      return null;
    }
  };
}

export function makeProgress(done: number, total: number, unit: string, label: string): Progress {
  const safeTotal = total > 0 ? total : 0;
  const clamped = Math.max(0, safeTotal > 0 ? Math.min(done, safeTotal) : done);
  const fraction = safeTotal > 0 ? clamped / safeTotal : 0;
  return { done: clamped, total: safeTotal, unit, fraction, label };
}
