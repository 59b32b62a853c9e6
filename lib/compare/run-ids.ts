/** At most this many runs in one comparison (page, export and share). */
export const MAX_COMPARE_RUNS = 30;

import { isUuid } from "../http/params";

export { isUuid };

export interface ParsedRunIds {
  ids: string[];
  /** Entries that are not run ids (shown back to the user, clipped). */
  invalid: string[];
  /** How many valid ids were dropped beyond MAX_COMPARE_RUNS. */
  dropped: number;
}

/**
 * The `runs` query parameter ("id1,id2,…", repeated parameters allowed): ids in the order given,
 * lower-cased, without duplicates, at most MAX_COMPARE_RUNS.
 */
export function parseRunIds(param: string | readonly string[] | null | undefined): ParsedRunIds {
  const raw = (typeof param === "string" ? [param] : (param ?? [])).flatMap((p) => p.split(/[\s,]+/)).filter(Boolean);
  const ids: string[] = [];
  const invalid: string[] = [];
  for (const r of raw) {
    if (!isUuid(r)) {
      invalid.push(r.slice(0, 40));
      continue;
    }
    const id = r.toLowerCase();
    if (!ids.includes(id)) ids.push(id);
  }
  return { ids: ids.slice(0, MAX_COMPARE_RUNS), invalid, dropped: Math.max(0, ids.length - MAX_COMPARE_RUNS) };
}
