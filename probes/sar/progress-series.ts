// sar's own samples over the run: the columns a storage probe is read against (device busy,
// I/O wait, dirty pages, direct scanning), on seconds since its first sample.
import type { NormalisedResult } from "../core/types";
import type { ProgressSeries } from "../core/view";
import { SAR_METRICS, sarSeries } from "./series";

const DRAWN = ["%util", "%iowait", "kbdirty", "pgscand/s"];

export function sarProgress(result: NormalisedResult | null, _log: string): ProgressSeries[] {
  if (!result) return [];
  const s = sarSeries(result, null);
  return SAR_METRICS.filter((def) => DRAWN.includes(def.id)).flatMap((def) => {
    const points = (s.points[def.id] ?? []).filter((p): p is { t: number; v: number } => p.v !== null);
    return points.length ? [{ key: `sar.${def.id}`, label: `sar ${def.id}${def.section === "disk" && s.device ? ` ${s.device}` : ""}`, unit: def.unit, points }] : [];
  });
}
