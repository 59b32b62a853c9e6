// How an experiment spends its runs: arms interleaved in blocks so that drift (a warming disk,
// a neighbour's backup) hits every arm alike, and rounds added until every arm is stable.
import { seededRandom } from "../seeded-random";
import { coefficientOfVariation } from "./ratio-interval";

export interface RepeatPolicy {
  min: number;
  max: number;
  /** Target coefficient of variation of the headline metric, in % (2.5 like the Phoronix Test Suite). */
  cvTarget: number;
  order: "abba" | "random";
}

export const DEFAULT_POLICY: RepeatPolicy = { min: 3, max: 10, cvTarget: 2.5, order: "abba" };

/** Arm indexes in the order round `round` (0-based) runs them: A B, B A, A B … or shuffled blocks. */
export function roundOrder(arms: number, round: number, order: RepeatPolicy["order"], seed = 1): number[] {
  const idx = Array.from({ length: arms }, (_, i) => i);
  if (order === "abba") return round % 2 === 0 ? idx : idx.reverse();
  const next = seededRandom(seed * 7919 + round);
  for (let i = idx.length - 1; i > 0; i--) {
    const j = Math.floor(next() * (i + 1));
    [idx[i], idx[j]] = [idx[j] as number, idx[i] as number];
  }
  return idx;
}

export type RoundDecision =
  | { more: true; reason: "min" | "unstable" }
  | { more: false; reason: "stable" | "max"; message: string };

/** After a complete round: run another one, or stop and say why. */
export function decideNextRound(policy: RepeatPolicy, valuesByArm: readonly { label: string; values: number[] }[], roundsDone: number): RoundDecision {
  if (roundsDone < policy.min) return { more: true, reason: "min" };
  const cvs = valuesByArm.map((a) => ({ label: a.label, cv: (coefficientOfVariation(a.values) ?? 0) * 100 }));
  const worst = cvs.reduce((w, c) => (c.cv > w.cv ? c : w), { label: "", cv: 0 });
  if (worst.cv <= policy.cvTarget) {
    return { more: false, reason: "stable", message: `Stable after ${roundsDone} rounds: the highest coefficient of variation is ${worst.cv.toFixed(1)} % (${worst.label}), within the ${policy.cvTarget} % target.` };
  }
  if (roundsDone >= policy.max) {
    return { more: false, reason: "max", message: `Stopped at the maximum of ${policy.max} rounds: ${worst.label} still varies by ${worst.cv.toFixed(1)} %, above the ${policy.cvTarget} % target; treat small differences with care.` };
  }
  return { more: true, reason: "unstable" };
}
