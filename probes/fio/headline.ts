import { headlineOf, type HeadlineValue } from "../core/probe";
import type { NormalisedResult } from "../core/types";
import { mixedTotals } from "./totals";

const HEADLINE: Record<string, { noun: string; betterWhen: "higher" | "lower" }> = {
  bw: { noun: "bandwidth", betterWhen: "higher" },
  iops: { noun: "IOPS", betterWhen: "higher" },
  clat_p99: { noun: "p99 completion latency", betterWhen: "lower" },
};

/**
 * Bandwidth, IOPS and p99 completion latency of each job and direction that did any I/O (fio
 * lists every direction, zeros included).
 */
export function fioHeadline(result: NormalisedResult): HeadlineValue[] {
  // A mixed job's read + write total (probes/fio/totals.ts), beside each direction.
  const totals = ["bw", "iops"].flatMap((metric) =>
    mixedTotals(result.measurements, metric).map((t) => {
      const m = { metric, value: t.value, unit: t.unit, dims: { job: t.job, ...(t.instance !== undefined ? { instance: t.instance } : {}), direction: "total" } };
      return headlineOf(m, { noun: `total ${HEADLINE[metric]!.noun} of ${t.job}`, betterWhen: "higher" });
    }),
  );
  return [...perSide(result), ...totals];
}

function perSide(result: NormalisedResult): HeadlineValue[] {
  return result.measurements.flatMap((m) => {
    const h = HEADLINE[m.metric];
    if (!h || !(m.value > 0)) return [];
    const where = [m.dims.job, m.dims.direction].filter((x) => x !== undefined && x !== "").join(" ");
    return [headlineOf(m, { noun: where ? `${h.noun} of ${where}` : h.noun, betterWhen: h.betterWhen })];
  });
}
