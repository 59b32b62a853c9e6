import type { AdviceContext } from "../core/probe";
import type { SarParams } from "./params";

/** Coarse or few samples average bursts away; fewer samples than asked mean a cut-short run. */
export function sarAdvice(p: SarParams, { result }: AdviceContext): string[] {
  const out: string[] = [];
  if (p.interval > 10) {
    out.push(`sar sampled every ${p.interval} s: bursts shorter than that are averaged away. Use an interval of 1–5 s while a benchmark runs.`);
  }
  if (p.count < 3) {
    out.push(`sar took only ${p.count} sample${p.count === 1 ? "" : "s"}: use at least 3 (better 10 or more) to tell a trend from noise.`);
  }
  if (result) {
    const times = new Set(result.measurements.map((m) => m.dims.time).filter((t) => t !== "average"));
    if (times.size > 0 && times.size < p.count) out.push(`sar stopped after ${times.size} of ${p.count} samples: the run was cut short.`);
  }
  return out;
}
