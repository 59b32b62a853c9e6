// Order statistics over samples in milliseconds (nearest-rank percentiles: no interpolation,
// so every reported figure is a latency some line really had).

export interface Summary {
  n: number;
  p50: number;
  p95: number;
  p99: number;
  max: number;
  mean: number;
}

export function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return Number.NaN;
  const rank = Math.ceil((p / 100) * sorted.length);
  return sorted[Math.min(sorted.length, Math.max(1, rank)) - 1]!;
}

export function summarize(samples: readonly number[]): Summary {
  const s = [...samples].sort((a, b) => a - b);
  const mean = s.length ? s.reduce((a, b) => a + b, 0) / s.length : Number.NaN;
  return { n: s.length, p50: percentile(s, 50), p95: percentile(s, 95), p99: percentile(s, 99), max: s.at(-1) ?? Number.NaN, mean };
}

/** Rounds for the JSON file: sub-millisecond digits of a latency are noise. */
export function round(x: number, digits = 1): number {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
}

export function roundSummary(s: Summary, digits = 1): Summary {
  return { n: s.n, p50: round(s.p50, digits), p95: round(s.p95, digits), p99: round(s.p99, digits), max: round(s.max, digits), mean: round(s.mean, digits) };
}

/** Wall-clock milliseconds with sub-millisecond resolution; one clock for sender and receiver. */
export function nowMs(): number {
  return performance.timeOrigin + performance.now();
}
