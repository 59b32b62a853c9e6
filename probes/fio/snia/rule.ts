// SNIA's steady-state rule for a series of rounds (one figure per round, e.g. its IOPS).
//
// Our reading of the SNIA Solid State Storage Performance Test Specification (PTS, Enterprise
// and Client, §2 "Definitions", "Steady State"; the text was not in the searchable corpus, this
// is the published definition): over a "measurement window" of the last 5 rounds,
//   1. the data excursion, max(y) − min(y), is at most 20 % of the window's average of y, and
//   2. the slope excursion — the difference between the largest and the smallest value of the
//      least-squares line fitted through the window's points — is at most 10 % of that average.
// A line over 5 rounds numbered 1…5 goes from slope×1 to slope×5, so condition 2 is
// |slope| × (5 − 1) ≤ 10 % of the mean. The test stops at the first round where both hold, or
// after 25 rounds without a window that holds ("steady state not reached").

export const SNIA_WINDOW = 5;
export const SNIA_MAX_ROUNDS = 25;
export const SNIA_RANGE_LIMIT = 0.2;
export const SNIA_EXCURSION_LIMIT = 0.1;

export interface WindowFigures {
  /** 1-based numbers of the window's first and last round. */
  fromRound: number;
  toRound: number;
  mean: number;
  /** max − min over the window. */
  range: number;
  /** Least-squares slope, per round. */
  slope: number;
  /** |slope| × (window − 1): how far the fitted line moves across the window. */
  excursion: number;
  /** range / mean and excursion / mean, as fractions (0.2 = 20 %). */
  rangeShare: number;
  excursionShare: number;
  steady: boolean;
}

/** Least-squares slope of ys against x = 1…n. */
export function leastSquaresSlope(ys: readonly number[]): number {
  const n = ys.length;
  if (n < 2) return 0;
  const meanX = (n + 1) / 2;
  const meanY = ys.reduce((a, y) => a + y, 0) / n;
  let num = 0;
  let den = 0;
  ys.forEach((y, i) => {
    const dx = i + 1 - meanX;
    num += dx * (y - meanY);
    den += dx * dx;
  });
  return num / den;
}

/** The figures of the window ending at the last round, or null before SNIA_WINDOW rounds. */
export function lastWindow(rounds: readonly number[]): WindowFigures | null {
  if (rounds.length < SNIA_WINDOW) return null;
  const ys = rounds.slice(-SNIA_WINDOW);
  const mean = ys.reduce((a, y) => a + y, 0) / ys.length;
  const range = Math.max(...ys) - Math.min(...ys);
  const slope = leastSquaresSlope(ys);
  const excursion = Math.abs(slope) * (SNIA_WINDOW - 1);
  // A window of zeros (nothing transferred) is never steady: there is no mean to hold to.
  const rangeShare = mean > 0 ? range / mean : Infinity;
  const excursionShare = mean > 0 ? excursion / mean : Infinity;
  return {
    fromRound: rounds.length - SNIA_WINDOW + 1,
    toRound: rounds.length,
    mean,
    range,
    slope,
    excursion,
    rangeShare,
    excursionShare,
    steady: rangeShare <= SNIA_RANGE_LIMIT && excursionShare <= SNIA_EXCURSION_LIMIT,
  };
}

export interface SteadyVerdict {
  reached: boolean;
  /** Rounds that ran (the round at which the rule first held, when reached). */
  rounds: number;
  /** The deciding window: the one that held, else the last one (null: fewer than 5 rounds). */
  window: WindowFigures | null;
}

/**
 * Walks the rounds as the test does, stopping at the first window that holds: later rounds
 * (there are none when the run stopped in time) do not change the verdict.
 */
export function steadyVerdict(rounds: readonly number[]): SteadyVerdict {
  for (let n = SNIA_WINDOW; n <= rounds.length; n++) {
    const w = lastWindow(rounds.slice(0, n));
    if (w?.steady) return { reached: true, rounds: n, window: w };
  }
  return { reached: false, rounds: rounds.length, window: lastWindow(rounds) };
}

/** True when the test should run another round after these. */
export function wantsAnotherRound(rounds: readonly number[]): boolean {
  return rounds.length < SNIA_MAX_ROUNDS && !steadyVerdict(rounds).reached;
}
