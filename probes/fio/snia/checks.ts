// What a SNIA-style run says about itself: whether its rounds reached steady state. A run that
// did not is a finding about the device (or the round length), flagged as such, not a failure.
import type { RunCheck } from "../../checks/types";
import type { NormalisedResult } from "../../core/types";
import { SNIA_EXCURSION_LIMIT, SNIA_MAX_ROUNDS, SNIA_RANGE_LIMIT } from "./rule";

const one = (r: NormalisedResult, metric: string) => r.measurements.find((m) => m.metric === metric && Object.keys(m.dims).length === 0)?.value;
const pct = (v: number) => `${v.toFixed(1)} %`;

/** The precondition's and every round's fio runtime, added up, in seconds (one job's runtime per step). */
export function sniaMeasuredSeconds(r: NormalisedResult): number {
  const perStep = new Map<string, number>();
  for (const m of r.measurements) {
    if (m.metric !== "runtime" || typeof m.dims.step !== "string") continue;
    perStep.set(m.dims.step, Math.max(perStep.get(m.dims.step) ?? 0, m.value / 1000));
  }
  return [...perStep.values()].reduce((a, s) => a + s, 0);
}

export function sniaFlags(r: NormalisedResult): RunCheck[] {
  const reached = one(r, "ss_reached");
  if (reached === undefined || reached === 1) return [];
  const rounds = one(r, "ss_rounds") ?? 0;
  const range = one(r, "ss_range");
  const excursion = one(r, "ss_excursion");
  const window =
    range !== undefined && excursion !== undefined
      ? ` Over the last 5 rounds the IOPS ranged ${pct(range)} of their mean (limit ${SNIA_RANGE_LIMIT * 100} %) and the fitted line moved ${pct(excursion)} (limit ${SNIA_EXCURSION_LIMIT * 100} %).`
      : " Fewer than 5 rounds ran, so no window could be judged.";
  const why = rounds >= SNIA_MAX_ROUNDS ? `in ${SNIA_MAX_ROUNDS} rounds` : `in the ${rounds} rounds that ran before the run ended`;
  return [
    {
      code: "steady-state-not-reached",
      title: "Steady state not reached",
      evidence: `SNIA's steady-state rule did not hold ${why}.${window} The figures are those of the last round, not of a steady device.`,
      guide: null,
    },
  ];
}
