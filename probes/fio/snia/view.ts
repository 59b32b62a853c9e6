// A SNIA-style run's rounds as a chart: each round's IOPS, and over the deciding window its mean
// with the band the range rule allows (the window's max − min within 20 % of the mean).
import type { NormalisedResult } from "../../core/types";
import type { RunChart } from "../../core/view";
import { SNIA_RANGE_LIMIT } from "./rule";

const one = (r: NormalisedResult, metric: string) => r.measurements.find((m) => m.metric === metric);

/** One line of the verdict: "steady state reached after 7 rounds" / "not reached in 25 rounds". */
export function sniaVerdictText(r: NormalisedResult): string | null {
  const reached = one(r, "ss_reached")?.value;
  const rounds = one(r, "ss_rounds")?.value;
  if (reached === undefined || rounds === undefined) return null;
  const range = one(r, "ss_range")?.value;
  const excursion = one(r, "ss_excursion")?.value;
  const figures = range !== undefined && excursion !== undefined ? ` (last window: range ${range.toFixed(1)} %, slope excursion ${excursion.toFixed(1)} % of the mean)` : "";
  return reached === 1 ? `steady state reached after ${rounds} rounds${figures}` : `steady state not reached in ${rounds} rounds${figures}`;
}

export function sniaRoundsChart(r: NormalisedResult): RunChart | null {
  const rounds = r.measurements
    .filter((m) => m.metric === "round_iops")
    .map((m) => ({ x: Number(m.dims.round), y: m.value }))
    .sort((a, b) => a.x - b.x);
  if (rounds.length === 0) return null;
  const series: RunChart["series"] = [{ name: "IOPS of the round", points: rounds.map((p) => ({ ...p, label: `round ${p.x}` })) }];
  const window = one(r, "ss_window_iops");
  const span = typeof window?.dims.rounds === "string" ? /^(\d+)-(\d+)$/.exec(window.dims.rounds) : null;
  if (window && span) {
    const xs = [Number(span[1]), Number(span[2])];
    const half = (SNIA_RANGE_LIMIT / 2) * window.value;
    series.push(
      { name: "window mean", points: xs.map((x) => ({ x, y: window.value })) },
      { name: "mean + 10 %", points: xs.map((x) => ({ x, y: window.value + half })) },
      { name: "mean − 10 %", points: xs.map((x) => ({ x, y: window.value - half })) },
    );
  }
  const last = rounds[rounds.length - 1]!.x;
  const xTicks = Array.from({ length: last }, (_, i) => i + 1)
    .filter((x) => last <= 12 || x % 5 === 0 || x === 1)
    .map((x) => ({ value: x, label: String(x) }));
  return { title: `fio SNIA rounds: ${sniaVerdictText(r) ?? "IOPS per round"}`, kind: "line", xLabel: "round", yLabel: "IOPS", xTicks, series };
}
