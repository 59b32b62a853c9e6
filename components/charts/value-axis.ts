// The value (y) axis of a run chart as plain data, so its scale can be tested without a browser:
// linear by default; logarithmic on request, with ticks at 1, 2 and 5 times each power of ten
// (only the powers of ten when the data spans more than two decades), and a domain of whole
// tick values around the data so Recharts never tries log(0).

export interface ValueAxis {
  scale: "linear" | "log";
  ticks?: number[];
  domain?: [number, number];
}

/** Ticks 1-2-5 per decade over [min, max] (min > 0); just the decades when the span is wide. */
export function logTicks(min: number, max: number): number[] {
  if (!(min > 0) || !(max >= min)) return [];
  const lo = Math.floor(Math.log10(min));
  const hi = Math.ceil(Math.log10(max));
  const steps = hi - lo > 2 ? [1] : [1, 2, 5];
  const ticks: number[] = [];
  for (let e = lo; e <= hi; e++) {
    for (const s of steps) {
      const v = Number((s * 10 ** e).toPrecision(12));
      const below = ticks.length === 0 || v > ticks[ticks.length - 1]!;
      if (below) ticks.push(v);
    }
  }
  // From the last tick at or below min to the first at or above max.
  const first = Math.max(0, ticks.findLastIndex((t) => t <= min));
  const last = ticks.findIndex((t) => t >= max);
  return ticks.slice(first, last < 0 ? undefined : last + 1);
}

export function valueAxis(logY: boolean | undefined, values: readonly number[]): ValueAxis {
  if (!logY) return { scale: "linear" };
  const positive = values.filter((v) => v > 0 && Number.isFinite(v));
  if (positive.length === 0) return { scale: "linear" };
  const ticks = logTicks(Math.min(...positive), Math.max(...positive));
  return { scale: "log", ticks, domain: [ticks[0]!, ticks[ticks.length - 1]!] };
}
