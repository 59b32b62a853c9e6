// How often does the regression rule (lib/trends/regression.ts) alert on a steady series, and how
// soon does it catch a real step? Simulated series only (seconds, no server): log-normal runs at
// a given CV, seeded (lib/seeded-random.ts), evaluated after every run as the server does.
//   npx tsx bench/trend-calibration.ts [--series 2000] [--runs 30] [--cv 0.03] [--window 5] [--threshold 5] [--seed 1]
import { parseArgs } from "node:util";
import { replaySeries, simulateSeries, steadyFalseAlertRate } from "../lib/trends/calibration";

const { values: flags } = parseArgs({
  options: { series: { type: "string" }, runs: { type: "string" }, cv: { type: "string" }, window: { type: "string" }, threshold: { type: "string" }, seed: { type: "string" } },
});
const num = (v: string | undefined, dflt: number, name: string, min: number, max: number) => {
  if (v === undefined) return dflt;
  const n = Number(v);
  if (!Number.isFinite(n) || n < min || n > max) throw new Error(`--${name} takes a number from ${min} to ${max}`);
  return n;
};
const series = num(flags.series, 2000, "series", 10, 1_000_000);
const window = num(flags.window, 5, "window", 3, 50);
const runs = num(flags.runs, 30, "runs", 2 * window, 10_000);
const cv = num(flags.cv, 0.03, "cv", 0.001, 1);
const thresholdPct = num(flags.threshold, 5, "threshold", 0.5, 90);
const seed = num(flags.seed, 1, "seed", 0, 2 ** 31);
const pct = (x: number) => `${(x * 100).toFixed(3)} %`;

console.log(`Regression alerts, simulated: ${series} series of ${runs} runs, CV ${cv * 100} %, windows of ${window} runs, threshold ${thresholdPct} %, seed ${seed}`);
const steady = steadyFalseAlertRate({ series, runsPerSeries: runs, cv, windowRuns: window, thresholdPct, seed });
console.log(`steady series: ${steady.calls} of ${steady.evaluations} evaluations called a change (${pct(steady.ratePerEvaluation)}); ${steady.alerts} alerts after de-duplication; ${pct(steady.ratePerSeries)} of series alerted at least once`);

for (const drop of [0.05, 0.1, 0.2]) {
  let within = 0;
  let within2 = 0;
  let extra = 0;
  const step = 2 * window;
  for (let s = 0; s < series; s++) {
    const r = replaySeries(simulateSeries({ n: step + 2 * window, cv, seed: seed * 7_919 + s, factor: (i) => (i >= step ? 1 - drop : 1) }), { windowRuns: window, thresholdPct });
    const after = r.alerts.filter((a) => a.at >= step && a.kind === "regression");
    if (after[0] && after[0].at < step + window) within++;
    if (after[0]) within2++;
    if (after.length > 1) extra++;
  }
  console.log(`a sustained ${drop * 100} % drop: alerted within ${window} runs in ${pct(within / series)} of series, within ${2 * window} in ${pct(within2 / series)}; a second alert for the same step in ${extra}`);
}
