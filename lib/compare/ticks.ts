// Axis ticks of the compare charts.

/** 1-2-5 steps: about `count` round ticks from 0 (or lo) to at least hi. */
export function niceTicks(lo: number, hi: number, count = 5, integer = false): number[] {
  if (!(hi > lo)) hi = lo + 1;
  const raw = (hi - lo) / count;
  const mag = 10 ** Math.floor(Math.log10(raw));
  let step = [1, 2, 2.5, 5, 10].map((f) => f * mag).find((s) => s >= raw) ?? 10 * mag;
  if (integer) step = Math.max(1, Math.round(step));
  const start = Math.floor(lo / step) * step;
  const ticks: number[] = [];
  for (let v = start; v < hi + step * 0.999; v += step) ticks.push(Number((Math.round(v / step) * step).toPrecision(12)));
  return ticks;
}
