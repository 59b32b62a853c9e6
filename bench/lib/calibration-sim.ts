// The verdict's statistics alone, on simulated runs: how often the interval covers the true
// ratio, how often an A/A experiment (true ratio 1) still gets a "better"/"worse" verdict, and how
// often a known effect is detected — at fixed run counts and under a sequential stopping rule.
// The noise is what real runs show, not what the Mann–Whitney interval assumes: lognormal spread,
// a slow drift across the run order (a warming disk, a neighbour's backup), and occasional
// outliers (one run that met a flush storm). Runs are ordered ABBA like lib/experiments/schedule.ts.
import { ratioInterval } from "../../lib/experiments/ratio-interval";
import { roundOrder } from "../../lib/experiments/schedule";
import { seededRandom } from "../../lib/seeded-random";

export interface NoiseModel {
  name: string;
  /** σ of ln(value): 0.03 is about a 3 % coefficient of variation. */
  sigma: number;
  /** The drift over the whole experiment is uniform in ±driftPct % (linear in run order). */
  driftPct: number;
  /** Chance of one run being an outlier, and how far (× 1 − outlierDepth … × 1 − outlierDepth/3). */
  outlierRate: number;
  outlierDepth: number;
}

export const NOISE_MODELS: NoiseModel[] = [
  { name: "iid lognormal 3 %", sigma: 0.03, driftPct: 0, outlierRate: 0, outlierDepth: 0 },
  { name: "3 % noise, ±5 % drift, 3 % outliers", sigma: 0.03, driftPct: 5, outlierRate: 0.03, outlierDepth: 0.3 },
  { name: "8 % noise, ±10 % drift, 5 % outliers", sigma: 0.08, driftPct: 10, outlierRate: 0.05, outlierDepth: 0.4 },
];

/** True ratios of arm B to arm A: 1 is A/A; the rest are effects to detect (B faster). */
export const EFFECTS = [1, 1.05, 1.1, 1.2, 2] as const;

type Rng = () => number;

function gaussian(rng: Rng): number {
  // Box–Muller; 1 − u keeps the logarithm finite.
  return Math.sqrt(-2 * Math.log(1 - rng())) * Math.cos(2 * Math.PI * rng());
}

/**
 * A run generator for one simulated experiment: value(arm, position) for the position-th run of
 * the whole experiment. Drift and outliers hit whichever arm runs at that moment, as on a host.
 */
export function experimentNoise(rng: Rng, model: NoiseModel, trueRatio: number, totalRuns: number) {
  const drift = ((rng() * 2 - 1) * model.driftPct) / 100;
  return (arm: number, position: number): number => {
    const t = totalRuns > 1 ? position / (totalRuns - 1) : 0;
    let v = 100 * (arm === 1 ? trueRatio : 1) * Math.exp(model.sigma * gaussian(rng)) * (1 + drift * t);
    if (rng() < model.outlierRate) v *= 1 - model.outlierDepth * (1 / 3 + (2 / 3) * rng());
    return v;
  };
}

export interface CellResult {
  runsPerArm: number;
  /** The confidence the interval reports (exact for its sizes): the nominal level. */
  nominal: number;
  /** Share of intervals that contain the true ratio. */
  coverage: number;
  /** Share of experiments whose interval excludes 1, per true ratio ("false verdict" at ratio 1). */
  excludesOne: Record<string, number>;
  /** Share with the interval above 1 (the right direction, since B is the faster arm). */
  detected: Record<string, number>;
  trials: number;
}

/** Values of both arms after `rounds` ABBA rounds (one run per arm per round). */
function runRounds(noise: (arm: number, pos: number) => number, rounds: number, fromRound = 0, into: number[][] = [[], []]): number[][] {
  for (let r = fromRound; r < fromRound + rounds; r++) {
    roundOrder(2, r, "abba").forEach((arm, i) => into[arm]!.push(noise(arm, 2 * r + i)));
  }
  return into;
}

/** Fixed run counts: every experiment runs exactly n rounds. */
export function simulateFixed(opts: { model: NoiseModel; runsPerArm: number; trials: number; seed: number }): CellResult {
  const out: CellResult = { runsPerArm: opts.runsPerArm, nominal: 0, coverage: 0, excludesOne: {}, detected: {}, trials: opts.trials };
  let covered = 0;
  let total = 0;
  for (const ratio of EFFECTS) {
    const rng = seededRandom(opts.seed * 1009 + Math.round(ratio * 1000) + opts.runsPerArm * 7);
    let excl = 0;
    let up = 0;
    for (let t = 0; t < opts.trials; t++) {
      const noise = experimentNoise(rng, opts.model, ratio, 2 * opts.runsPerArm);
      const [a, b] = runRounds(noise, opts.runsPerArm);
      const ri = ratioInterval(a!, b!)!;
      out.nominal = ri.confidence;
      if (ri.low <= ratio && ratio <= ri.high) covered++;
      total++;
      if (ri.low > 1 || ri.high < 1) excl++;
      if (ri.low > 1) up++;
    }
    out.excludesOne[String(ratio)] = excl / opts.trials;
    out.detected[String(ratio)] = up / opts.trials;
  }
  out.coverage = covered / total;
  return out;
}

/**
 * After a complete round: another round or stop. The shape of lib/experiments/schedule.ts
 * decideNextRound with its policy bound, so the server's own rule can be passed in unchanged.
 */
export type StopRule = (valuesByArm: readonly { label: string; values: number[] }[], roundsDone: number) => { more: boolean };

export interface SequentialResult {
  rule: string;
  coverage: number;
  /** Coverage the intervals claimed on average (they report it per stopping size). */
  nominalMean: number;
  excludesOne: Record<string, number>;
  detected: Record<string, number>;
  meanRunsPerArm: Record<string, number>;
  trials: number;
}

export function simulateSequential(opts: { model: NoiseModel; rule: StopRule; ruleName: string; maxRounds: number; trials: number; seed: number }): SequentialResult {
  const res: SequentialResult = { rule: opts.ruleName, coverage: 0, nominalMean: 0, excludesOne: {}, detected: {}, meanRunsPerArm: {}, trials: opts.trials };
  let covered = 0;
  let claimed = 0;
  let total = 0;
  for (const ratio of EFFECTS) {
    const rng = seededRandom(opts.seed * 7919 + Math.round(ratio * 1000));
    let excl = 0;
    let up = 0;
    let runs = 0;
    for (let t = 0; t < opts.trials; t++) {
      // Drift is set over the longest possible experiment: stopping early sees only its start.
      const noise = experimentNoise(rng, opts.model, ratio, 2 * opts.maxRounds);
      const values: number[][] = [[], []];
      let rounds = 0;
      do {
        runRounds(noise, 1, rounds, values);
        rounds++;
      } while (rounds < opts.maxRounds && opts.rule([{ label: "A", values: values[0]! }, { label: "B", values: values[1]! }], rounds).more);
      const ri = ratioInterval(values[0]!, values[1]!)!;
      if (ri.low <= ratio && ratio <= ri.high) covered++;
      claimed += ri.confidence;
      total++;
      if (ri.low > 1 || ri.high < 1) excl++;
      if (ri.low > 1) up++;
      runs += rounds;
    }
    res.excludesOne[String(ratio)] = excl / opts.trials;
    res.detected[String(ratio)] = up / opts.trials;
    res.meanRunsPerArm[String(ratio)] = runs / opts.trials;
  }
  res.coverage = covered / total;
  res.nominalMean = claimed / total;
  return res;
}
