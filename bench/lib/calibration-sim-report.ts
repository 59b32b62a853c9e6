// Runs the simulation grid and prints it: per noise model, per runs-per-arm, the interval's real
// coverage beside the confidence it reports, the A/A false-verdict rate and the detection rates;
// then the server's own stopping rule (lib/experiments/schedule.ts) with stop "precision" and stop "cv".
import { halfWidthPct } from "../../lib/experiments/precision";
import { ratioInterval } from "../../lib/experiments/ratio-interval";
import { DEFAULT_POLICY, decideNextRound, type RepeatPolicy } from "../../lib/experiments/schedule";
import { EFFECTS, NOISE_MODELS, simulateFixed, simulateSequential, type CellResult, type SequentialResult, type StopRule } from "./calibration-sim";

const pct = (x: number, d = 1) => `${(x * 100).toFixed(d)}`;
const RUN_COUNTS = [3, 4, 5, 6, 8, 10, 15, 20];

export interface SimOptions {
  trials: number;
  seed: number;
  precisionPct: number;
  min: number;
  max: number;
  /** A rule to simulate instead of the server's precision rule (the CV rule is always shown beside it). */
  rule?: { name: string; rule: StopRule };
}

export interface SimReport {
  fixed: { model: string; cells: CellResult[] }[];
  sequential: { model: string; results: SequentialResult[] }[];
  shortfalls: string[];
}

/**
 * The server's own stopping rule (lib/experiments/schedule.ts decideNextRound), policy bound and
 * fed what the server feeds it: each arm's interval half-width against the first arm, the valid
 * runs per arm and the rounds done. The simulated runs begin after any warm-up and take no time,
 * so the warm-up and the budget are off here.
 */
export function libRule(policy: RepeatPolicy): StopRule {
  const p: RepeatPolicy = { ...policy, warmup: false, budgetMin: null };
  return (arms, rounds) => {
    const base = arms[0]?.values ?? [];
    const halfWidths = arms.slice(1).map((a) => {
      const ri = base.length >= 3 && a.values.length >= 3 ? ratioInterval(base, a.values) : null;
      return ri ? halfWidthPct(ri) : null;
    });
    const validPerArm = Math.min(...arms.map((a) => a.values.length));
    return { more: decideNextRound(p, { halfWidths, validPerArm, roundsDone: rounds, minutesElapsed: 0, series: arms }).more };
  };
}

export function runSimulation(o: SimOptions, log: (line: string) => void): SimReport {
  const report: SimReport = { fixed: [], sequential: [], shortfalls: [] };
  const effects = EFFECTS.filter((e) => e !== 1);
  const effectHead = effects.map((e) => (e >= 2 ? `${e}×` : `+${Math.round((e - 1) * 100)} %`).padStart(7)).join(" ");
  for (const model of NOISE_MODELS) {
    log(`\nfixed run counts — ${model.name} (${o.trials} experiments per cell and effect)`);
    log(`runs/arm  nominal  coverage  A/A false  detected: ${effectHead}`);
    const cells: CellResult[] = [];
    for (const n of RUN_COUNTS) {
      const c = simulateFixed({ model, runsPerArm: n, trials: o.trials, seed: o.seed });
      cells.push(c);
      // Monte Carlo error: a coverage within 2 standard errors of the nominal is not a shortfall.
      const se = Math.sqrt((c.nominal * (1 - c.nominal)) / (c.trials * EFFECTS.length));
      const short = c.coverage < c.nominal - 2 * se;
      if (short) report.shortfalls.push(`${model.name}, ${n} runs/arm: coverage ${pct(c.coverage)} % < nominal ${pct(c.nominal)} %`);
      log(
        `${String(n).padStart(8)}  ${pct(c.nominal).padStart(6)} %  ${pct(c.coverage).padStart(6)} %${short ? "!" : " "}  ${pct(c.excludesOne["1"]!).padStart(7)} %  ` +
          `          ${effects.map((e) => `${pct(c.detected[String(e)]!, 0)} %`.padStart(7)).join(" ")}`,
      );
    }
    report.fixed.push({ model: model.name, cells });
  }
  const rules: { name: string; rule: StopRule }[] = [
    o.rule ?? { name: `server rule: precision ±${o.precisionPct} %, ${o.min}–${o.max} runs/arm`, rule: libRule({ ...DEFAULT_POLICY, stop: "precision", precisionPct: o.precisionPct, min: o.min, max: o.max }) },
    { name: `server rule: CV ≤ ${DEFAULT_POLICY.cvTarget} %, ${o.min}–${o.max} runs/arm`, rule: libRule({ ...DEFAULT_POLICY, stop: "cv", min: o.min, max: o.max }) },
  ];
  for (const model of NOISE_MODELS) {
    log(`\nsequential stopping — ${model.name}`);
    log(`rule                                          claimed  coverage  A/A false  detected: ${effectHead}   runs/arm (A/A … 2×)`);
    const results: SequentialResult[] = [];
    for (const r of rules) {
      const s = simulateSequential({ model, rule: r.rule, ruleName: r.name, maxRounds: o.max, trials: o.trials, seed: o.seed });
      results.push(s);
      const se = Math.sqrt((s.nominalMean * (1 - s.nominalMean)) / (s.trials * EFFECTS.length));
      const short = s.coverage < s.nominalMean - 2 * se;
      if (short) report.shortfalls.push(`${model.name}, ${r.name}: coverage ${pct(s.coverage)} % < claimed ${pct(s.nominalMean)} %`);
      const runs = EFFECTS.map((e) => s.meanRunsPerArm[String(e)]!.toFixed(1)).join(" ");
      log(
        `${r.name.padEnd(44)}  ${pct(s.nominalMean).padStart(5)} %  ${pct(s.coverage).padStart(6)} %${short ? "!" : " "}  ${pct(s.excludesOne["1"]!).padStart(7)} %  ` +
          `          ${effects.map((e) => `${pct(s.detected[String(e)]!, 0)} %`.padStart(7)).join(" ")}   ${runs}`,
      );
    }
    report.sequential.push({ model: model.name, results });
  }
  log(report.shortfalls.length ? `\ncoverage below nominal (! above):\n${report.shortfalls.map((s) => `  - ${s}`).join("\n")}` : "\ncoverage ≥ nominal in every cell (within 2 Monte Carlo standard errors)");
  return report;
}
