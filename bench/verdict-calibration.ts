// How often are the experiments' verdicts wrong? Two modes:
//   --sim   the statistics alone on simulated runs (seconds, no server): the interval's real
//           coverage beside its stated confidence, A/A false verdicts and detection rates, at fixed
//           run counts and under sequential stopping rules.
//   default REAL experiments through the HTTP API on real agents of this machine (as root): A/A
//           experiments (identical arms) and positive controls (ext4 vs ext4 mounted sync).
//   npx tsx bench/verdict-calibration.ts --sim [--trials 2000] [--seed 1] [--precision-pct 5] [--max 20]
//   npx tsx bench/verdict-calibration.ts [--aa 40] [--positive 20] [--runtime-sec 5] [--agents 1|2]
//        [--max-minutes M] [--out FILE] [--resume FILE] [--min 4] [--max 6] [--build | --stale-build]
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { createOperatorToken, UserApi } from "./lib/api";
import { excludesOne, planExperiments, rightDirection, runPlanned, startCalibrationAgent, type CalibrationAgent, type ExperimentOutcome } from "./lib/calibration-real";
import { runSimulation } from "./lib/calibration-sim-report";
import { DEFAULT_POLICY } from "../lib/experiments/schedule";
import { cleanupAll, cleanupOnSignals, onCleanup } from "./lib/cleanup";
import { busiestOthersMeter, descendants, machineCpuMeter } from "./lib/proc";
import { describeMachine, writeJson } from "./lib/report";
import { root, startMainServer } from "./lib/server";

const say = (m: string) => console.error(`[calibration] ${m}`);
const num = (v: string | undefined, dflt: number, name: string, min: number, max: number) => {
  if (v === undefined) return dflt;
  const n = Number(v);
  if (!Number.isFinite(n) || n < min || n > max) throw new Error(`--${name} takes a number from ${min} to ${max}`);
  return n;
};
/** Per-run overhead beyond the runtime, estimated: fio's 128 MiB layout, the agent's claim poll, and for lab arms mkfs + mount + unmount. */
const OVERHEAD_SEC = { dirs: 4, lab: 9 };

function loadSnapshot(): { loadavg: number[]; busyPct: number; others: string[] } {
  return { loadavg: os.loadavg().map((x) => Math.round(x * 100) / 100), busyPct: 0, others: [] };
}

async function whatElseRuns(seconds: number, ours: () => Record<string, number[]>): Promise<{ loadavg: number[]; busyPct: number; others: string[] }> {
  const busy = machineCpuMeter();
  const others = busiestOthersMeter(ours, 3);
  await new Promise((r) => setTimeout(r, seconds * 1000));
  return { ...loadSnapshot(), busyPct: Math.round(busy()), others: others() };
}

async function sim(flags: Record<string, string | boolean | undefined>): Promise<number> {
  const trials = num(flags.trials as string | undefined, 2000, "trials", 50, 100_000);
  const seed = num(flags.seed as string | undefined, 1, "seed", 0, 2 ** 31);
  const precisionPct = num(flags["precision-pct"] as string | undefined, 5, "precision-pct", 0.5, 50);
  const min = num(flags.min as string | undefined, DEFAULT_POLICY.min, "min", 3, 50);
  const max = num(flags.max as string | undefined, 20, "max", min, 50);
  const t0 = Date.now();
  console.log(`Verdict calibration, simulated: ${trials} experiments per cell, seed ${seed}, ABBA order, Hodges–Lehmann ratio with the exact Mann–Whitney interval (lib/experiments)`);
  const report = runSimulation({ trials, seed, precisionPct, min, max }, (l) => console.log(l));
  const out = (flags.out as string | undefined) ?? path.join(root, "bench", "results", "verdict-calibration-sim.json");
  writeJson(out, { generatedAt: new Date().toISOString(), config: { trials, seed, precisionPct, min, max }, ...report });
  console.log(`\nwritten to ${path.relative(root, out)} (${((Date.now() - t0) / 1000).toFixed(0)} s)`);
  return 0;
}

interface Summary {
  aa: { experiments: number; falseVerdicts: number; rate: number | null; lines: number; falseLines: number; lineRate: number | null };
  positive: { experiments: number; detected: number; rate: number | null; wrongWay: number };
  runsPerVerdict: number | null;
  minutesPerVerdict: number | null;
  failed: number;
}

function summarise(outcomes: ExperimentOutcome[]): Summary {
  const done = outcomes.filter((o) => o.status === "FINISHED" && o.lines.length > 0);
  const aa = done.filter((o) => o.kind !== "positive-sync");
  const pos = done.filter((o) => o.kind === "positive-sync");
  const aaLines = aa.flatMap((o) => o.lines);
  const falseVerdicts = aa.filter((o) => o.lines.some(excludesOne)).length;
  const falseLines = aaLines.filter(excludesOne).length;
  // A positive control is detected when its bandwidth line says the sync arm is slower.
  const detected = pos.filter((o) => o.lines.some((l) => l.metric === "bw" && rightDirection(l))).length;
  const wrongWay = pos.filter((o) => o.lines.some((l) => excludesOne(l) && !rightDirection(l))).length;
  const runs = done.reduce((s, o) => s + o.runsPerArm.reduce((a, b) => a + b, 0), 0);
  const minutes = done.reduce((s, o) => s + o.minutes, 0);
  const rate = (a: number, b: number) => (b ? a / b : null);
  return {
    aa: { experiments: aa.length, falseVerdicts, rate: rate(falseVerdicts, aa.length), lines: aaLines.length, falseLines, lineRate: rate(falseLines, aaLines.length) },
    positive: { experiments: pos.length, detected, rate: rate(detected, pos.length), wrongWay },
    runsPerVerdict: rate(runs, done.length),
    minutesPerVerdict: rate(minutes, done.length),
    failed: outcomes.length - done.length,
  };
}

const pctOf = (r: number | null) => (r === null ? "—" : `${(r * 100).toFixed(1)} %`);

async function real(flags: Record<string, string | boolean | undefined>): Promise<number> {
  if (process.getuid?.() !== 0) throw new Error("real mode makes lab file systems (loop devices, mount): run it as root");
  const aaN = num(flags.aa as string | undefined, 40, "aa", 0, 1000);
  const posN = num(flags.positive as string | undefined, 20, "positive", 0, 1000);
  const runtimeSec = num(flags["runtime-sec"] as string | undefined, 5, "runtime-sec", 1, 600);
  const agentsN = num(flags.agents as string | undefined, 1, "agents", 1, 2);
  const maxMinutes = num(flags["max-minutes"] as string | undefined, Infinity, "max-minutes", 1, Infinity);
  const repeats = { min: num(flags.min as string | undefined, 4, "min", 3, 50), max: num(flags.max as string | undefined, 6, "max", 2, 50) };
  const port = num(flags.port as string | undefined, 3314, "port", 1024, 65535);
  if (runtimeSec < 5) say(`warning: runs of ${runtimeSec} s are shorter than 5 s and will be flagged invalid once the result checks land`);
  const date = new Date().toISOString().slice(0, 10);
  const resume = flags.resume as string | undefined;
  const out = path.resolve((flags.out as string | undefined) ?? resume ?? path.join(root, "bench", "results", `verdict-calibration-${date}.json`));
  const previous: ExperimentOutcome[] = resume && fs.existsSync(resume) ? ((JSON.parse(fs.readFileSync(resume, "utf8")) as { outcomes: ExperimentOutcome[] }).outcomes ?? []) : [];
  const plan = planExperiments(aaN, posN, runtimeSec);
  // Resuming keeps the experiments that ended with a verdict and runs the rest of the plan.
  const keep = previous.filter((o) => o.status === "FINISHED" && plan.some((p) => p.n === o.n && p.kind === o.kind && p.workload === o.workload));
  const todo = plan.filter((p) => !keep.some((o) => o.n === p.n));
  // Estimate: each experiment runs min…max rounds of two arms; a run is the runtime plus overhead.
  const est = (rounds: number) => todo.reduce((s, p) => s + 2 * rounds * (runtimeSec + (p.kind === "aa-dirs" ? OVERHEAD_SEC.dirs : OVERHEAD_SEC.lab)), 0) / 60 / agentsN;
  say(`${plan.length} experiments (${aaN} A/A, ${posN} positive), ${keep.length} kept from ${resume ?? "—"}, ${todo.length} to run on ${agentsN} agent(s)`);
  say(`estimated time: ${est(repeats.min).toFixed(0)}–${est(repeats.max).toFixed(0)} min (experiments × 2 arms × ${repeats.min}–${repeats.max} runs × (${runtimeSec} s + ${OVERHEAD_SEC.dirs}–${OVERHEAD_SEC.lab} s overhead) ÷ agents)`);
  if (agentsN > 1) say("note: agent 1's directories and lab live on /dev/shm, agent 0's on the disk: they share the CPUs, not a device");
  cleanupOnSignals();
  const machine = describeMachine();
  const before = await whatElseRuns(3, () => ({}));
  say(`before start: load ${before.loadavg.join(" ")}, machine ${before.busyPct} % busy, other processes: ${before.others.join(", ") || "none above 3 % of a core"}`);

  const dataDir = path.join(root, ".data", "bench-calibration");
  onCleanup("calibration data dir", () => fs.rmSync(dataDir, { recursive: true, force: true }));
  const server = await startMainServer({ port, dataDir, ifStale: flags.build ? "build" : flags["stale-build"] ? "serve" : "refuse" });
  const user = new UserApi(server.url, await createOperatorToken(server.databaseUrl));
  const agentsDir = path.join(dataDir, "agents");
  const agents: CalibrationAgent[] = [];
  // The second agent lives on /dev/shm (tmpfs): its runs never touch the first one's disk.
  const memDir = fs.mkdtempSync("/dev/shm/probebook-calibration-");
  onCleanup("calibration tmpfs dir", () => fs.rmSync(memDir, { recursive: true, force: true }));
  for (let i = 0; i < agentsN; i++) agents.push(await startCalibrationAgent(user, i, i === 0 ? agentsDir : memDir));
  const ours = () => ({ ours: [...descendants(server.pid), ...agents.flatMap((a) => [a.pid, ...descendants(a.pid)])] });
  const outcomes: ExperimentOutcome[] = [...keep];
  const loads: { at: string; loadavg: number[]; busyPct: number; others: string[] }[] = [before].map((b) => ({ at: "start", ...b }));
  const t0 = Date.now();
  const save = () => writeJson(out, { generatedAt: new Date().toISOString(), machine, build: server.build, config: { aa: aaN, positive: posN, runtimeSec, agents: agentsN, repeats }, load: loads, summary: summarise(outcomes), outcomes });
  let next = 0;
  const worker = async (agent: CalibrationAgent) => {
    while (next < todo.length) {
      if ((Date.now() - t0) / 60_000 > maxMinutes) return say(`--max-minutes ${maxMinutes} reached: stopping agent ${agent.index}`);
      const p = todo[next++]!;
      // What else ran during this experiment: the whole machine's CPU and the busiest processes
      // that are neither the server's tree nor the agents' (fio runs under the agents).
      const busy = machineCpuMeter();
      const others = busiestOthersMeter(ours, 3);
      const o = await runPlanned(user, agent, p, repeats, Math.max(10, (4 * repeats.max * (runtimeSec + OVERHEAD_SEC.lab)) / 60));
      outcomes.push(o);
      const f = (x: number | null) => (x === null ? "—" : x.toFixed(3));
      const lines = o.lines.map((l) => `${l.metric} ${f(l.ratio)} [${f(l.ciLow)}, ${f(l.ciHigh)}]${excludesOne(l) ? "*" : ""}`).join("; ");
      say(`#${p.n} ${p.kind} ${p.workload} on agent ${agent.index}: ${o.status}${o.error ? ` (${o.error})` : ""}, ${o.runsPerArm.join("+")} runs, ${o.minutes.toFixed(1)} min — ${lines || "no verdict"}`);
      const load = { at: `#${p.n}`, loadavg: loadSnapshot().loadavg, busyPct: Math.round(busy()), others: others() };
      loads.push(load);
      save();
    }
  };
  await Promise.all(agents.map(worker));
  const during = await whatElseRuns(3, ours);
  loads.push({ at: "end", ...during });
  save();
  const s = summarise(outcomes);
  const perExperiment = loads.filter((l) => l.at.startsWith("#"));
  const avg = (f: (l: (typeof loads)[number]) => number) => perExperiment.reduce((a, l) => a + f(l), 0) / Math.max(1, perExperiment.length);
  const otherNames = [...new Set(perExperiment.flatMap((l) => l.others.map((o) => o.replace(/ \d+$/, ""))))];
  console.log(`\nVerdict calibration, real — ${machine.vcpus} vCPU ${machine.cpuModel}, ${machine.memGiB} GiB, kernel ${machine.kernel}, ${new Date().toISOString()}`);
  console.log(`fio ${runtimeSec} s time-based runs, 128 MiB file, psync QD1; repeats ${repeats.min}–${repeats.max}, ABBA, the server's own stopping rule; ${agentsN} agent(s)`);
  console.log(`A/A false verdicts:        ${s.aa.falseVerdicts} of ${s.aa.experiments} experiments = ${pctOf(s.aa.rate)}  (per verdict line: ${s.aa.falseLines} of ${s.aa.lines} = ${pctOf(s.aa.lineRate)})`);
  console.log(`positive controls detected: ${s.positive.detected} of ${s.positive.experiments} = ${pctOf(s.positive.rate)}  (a line the wrong way: ${s.positive.wrongWay})`);
  console.log(`runs per verdict: ${s.runsPerVerdict?.toFixed(1) ?? "—"}, minutes per verdict: ${s.minutesPerVerdict?.toFixed(1) ?? "—"}, failed/unfinished experiments: ${s.failed}`);
  console.log(
    `what else ran: before start load ${before.loadavg[0]} and ${before.busyPct} % busy; during the experiments the machine was ${avg((l) => l.busyPct).toFixed(0)} % busy on average ` +
      `(1-min load ${avg((l) => l.loadavg[0]!).toFixed(2)}), other processes above 3 % of a core: ${otherNames.join(", ") || "none"}`,
  );
  console.log(`\nwritten to ${path.relative(root, out)} (${((Date.now() - t0) / 60_000).toFixed(1)} min)`);
  for (const a of agents) await a.stop();
  return s.failed > 0 ? 1 : 0;
}

async function main(): Promise<number> {
  const { values: flags } = parseArgs({
    options: {
      sim: { type: "boolean" },
      trials: { type: "string" },
      seed: { type: "string" },
      "precision-pct": { type: "string" },
      min: { type: "string" },
      max: { type: "string" },
      aa: { type: "string" },
      positive: { type: "string" },
      "runtime-sec": { type: "string" },
      agents: { type: "string" },
      "max-minutes": { type: "string" },
      out: { type: "string" },
      resume: { type: "string" },
      port: { type: "string" },
      build: { type: "boolean" },
      "stale-build": { type: "boolean" },
    },
  });
  return flags.sim ? sim(flags) : real(flags);
}

main()
  .catch((err: unknown) => {
    say(`error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    return 1;
  })
  .then(async (code) => {
    await cleanupAll();
    process.exit(code);
  });
