import type { Stat } from "./types";

/** The middle value (mean of the two middle ones for an even count); NaN for no values. */
export function median(values: readonly number[]): number {
  if (values.length === 0) return NaN;
  const s = [...values].sort((a, b) => a - b);
  const mid = Math.floor(s.length / 2);
  return s.length % 2 === 1 ? s[mid]! : (s[mid - 1]! + s[mid]!) / 2;
}

/**
 * Median, min, max, mean and coefficient of variation of repeated measurements. The CV uses
 * the sample standard deviation (n − 1), as for any small set of repeats, and is null for a
 * single value or a mean of zero (a ratio to zero says nothing).
 */
export function summarise(values: readonly number[]): Stat & { mean: number } {
  const n = values.length;
  if (n === 0) throw new Error("summarise needs at least one value");
  let min = Infinity;
  let max = -Infinity;
  let sum = 0;
  for (const v of values) {
    if (v < min) min = v;
    if (v > max) max = v;
    sum += v;
  }
  const mean = sum / n;
  let cv: number | null = null;
  if (n > 1 && mean !== 0) {
    let ss = 0;
    for (const v of values) ss += (v - mean) ** 2;
    cv = (Math.sqrt(ss / (n - 1)) / Math.abs(mean)) * 100;
  }
  return { n, median: median(values), min, max, mean, cv };
}

/** Six significant digits: what the page shows and computes Δ % from, without float noise in the payload. */
export function round6(v: number): number {
  return Number.isFinite(v) && v !== 0 ? Number(v.toPrecision(6)) : v;
}

/** The statistics a chart or table cell carries to the browser. */
export function compactStat(s: Stat): Stat {
  return { n: s.n, median: round6(s.median), min: round6(s.min), max: round6(s.max), cv: s.cv === null ? null : Math.round(s.cv * 1000) / 1000 };
}

/** Above this coefficient of variation (in %) the repeats disagree enough to warn. */
export const CV_WARN_PERCENT = 5;

/**
 * Change of `value` against `baseline` in %: (value − baseline) ÷ |baseline| × 100. Null when
 * either is missing or the baseline is zero (no meaningful ratio).
 */
export function deltaPercent(value: number | null | undefined, baseline: number | null | undefined): number | null {
  if (value === null || value === undefined || baseline === null || baseline === undefined) return null;
  if (!Number.isFinite(value) || !Number.isFinite(baseline) || baseline === 0) return null;
  return ((value - baseline) / Math.abs(baseline)) * 100;
}

/** "+12.3 %", "−4.0 %", "±0 %" (true minus sign; one decimal). */
export function formatDelta(d: number | null): string {
  if (d === null) return "—";
  const r = Math.round(d * 10) / 10;
  if (r === 0) return "±0 %";
  return `${r > 0 ? "+" : "−"}${Math.abs(r).toFixed(1)} %`;
}
