// How an experiment spends its runs: arms interleaved in blocks so that drift (a warming disk,
// a neighbour's backup) hits every arm alike, and rounds added until the answer is precise
// enough, the time budget is spent, or the maximum is reached.
import { seededRandom } from "../seeded-random";
import { coefficientOfVariation } from "./ratio-interval";

export interface RepeatPolicy {
  /** Minimum VALID runs per arm before the rule may stop on precision or CV. */
  min: number;
  /** Maximum measured runs per arm (the warm-up round not counted). */
  max: number;
  /** Target coefficient of variation of every headline figure, in % (stop "cv"). */
  cvTarget: number;
  order: "abba" | "random";
  /** "precision": stop when every verdict line's interval is within ±precisionPct; "cv": when every arm's CV is under cvTarget. */
  stop: "precision" | "cv";
  /** Target interval half-width in % of the ratio (see precision.ts halfWidthPct). */
  precisionPct: number;
  /** Minutes since the experiment started after which no further round is queued; null = none. */
  budgetMin: number | null;
  /** Round 0 is a warm-up run per arm, queued and shown but not counted. */
  warmup: boolean;
}

// Four valid runs per arm by default: with three, no interval reaches 95 % (the exact
// Mann–Whitney interval is then 90 %), and bench/verdict-calibration.ts measured about 10 % of
// A/A experiments called a difference; from four (97 %) it is 2.5–5 %, under the precision rule too.
export const DEFAULT_POLICY: RepeatPolicy = { min: 4, max: 10, cvTarget: 2.5, order: "abba", stop: "precision", precisionPct: 5, budgetMin: 15, warmup: true };

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

/**
 * What the stop rule may look at. Deliberately no ratios, intervals or verdict states: only the
 * interval half-widths, the counts and the clock. Stopping when the interval first excludes 1
 * ("peeking") turns a 5 % false-verdict rate into about 19 % over ten looks (Armitage, McPherson
 * & Rowe, 1969, repeated significance tests); a rule that stops on width alone does not choose
 * its stopping point by the answer.
 */
export interface StopInput {
  /** halfWidthPct of every verdict line; null for a line still collecting. */
  halfWidths: readonly (number | null)[];
  /** Fewest valid runs in any arm. */
  validPerArm: number;
  /** Measured rounds done (not counting the warm-up). */
  roundsDone: number;
  minutesElapsed: number;
  /** Every arm × headline figure, for stop "cv". */
  series: readonly { label: string; values: number[] }[];
}

export type RoundDecision =
  | { more: true; reason: "min" | "unstable" | "imprecise" | "warm-up" }
  | { more: false; reason: "stable" | "precision" | "budget" | "max"; message: string };

const pctText = (p: number) => (p >= 10 ? p.toFixed(0) : p.toFixed(1));
const minText = (m: number) => `${Math.max(0, Math.round(m))} min`;

/** The widest line's half-width, or null while some line has none yet. */
export function worstHalfWidth(halfWidths: readonly (number | null)[]): number | null {
  if (halfWidths.length === 0 || halfWidths.some((w) => w === null)) return null;
  return Math.max(...(halfWidths as number[]));
}

/** "±4.2 % after 6 runs per arm in 3 min", or what is still missing. */
export function achievedText(p: Pick<RepeatPolicy, "min">, s: Pick<StopInput, "halfWidths" | "validPerArm" | "minutesElapsed">): string {
  const w = worstHalfWidth(s.halfWidths);
  const what = w === null ? `no interval yet (${s.validPerArm} of ${p.min} valid runs per arm)` : `±${pctText(w)} % after ${s.validPerArm} runs per arm`;
  return `${what} in ${minText(s.minutesElapsed)}`;
}

/** After a complete round: run another one, or stop and say what was achieved. */
export function decideNextRound(policy: RepeatPolicy, s: StopInput): RoundDecision {
  if (policy.warmup && s.roundsDone <= 0) return { more: true, reason: "warm-up" };
  const enough = s.validPerArm >= policy.min;
  const achieved = achievedText(policy, s);
  if (policy.stop === "precision") {
    const w = worstHalfWidth(s.halfWidths);
    if (enough && w !== null && w <= policy.precisionPct) return { more: false, reason: "precision", message: `${achieved}: precision reached (target ±${policy.precisionPct} %).` };
  } else if (enough) {
    const cvs = s.series.map((a) => ({ label: a.label, cv: (coefficientOfVariation(a.values) ?? 0) * 100 }));
    const worst = cvs.reduce((wst, c) => (c.cv > wst.cv ? c : wst), { label: "", cv: 0 });
    if (worst.cv <= policy.cvTarget) {
      return { more: false, reason: "stable", message: `Stable after ${s.roundsDone} rounds: the highest coefficient of variation is ${worst.cv.toFixed(1)} % (${worst.label}), within the ${policy.cvTarget} % target.` };
    }
    if (s.roundsDone >= policy.max) {
      return { more: false, reason: "max", message: `Stopped at the maximum of ${policy.max} rounds: ${worst.label} still varies by ${worst.cv.toFixed(1)} %, above the ${policy.cvTarget} % target; treat small differences with care.` };
    }
  }
  const target = policy.stop === "precision" ? `target ±${policy.precisionPct} %` : `CV target ${policy.cvTarget} %`;
  if (s.roundsDone >= policy.max) return { more: false, reason: "max", message: `${achieved}; maximum of ${policy.max} runs per arm reached (${target}).` };
  if (policy.budgetMin !== null && s.minutesElapsed >= policy.budgetMin) return { more: false, reason: "budget", message: `${achieved}; budget of ${policy.budgetMin} min reached (${target}).` };
  return { more: true, reason: enough ? (policy.stop === "precision" ? "imprecise" : "unstable") : "min" };
}
