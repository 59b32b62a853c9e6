// One real run of fio's SNIA-style preset (snia-iops-steady) through the real agent (its job
// loop, one fio process per round, the rule between rounds) on this machine's disk: rounds to
// steady state, each round's IOPS and the wall time. Writes bench/results/fio-snia.json.
//
//   npx tsx bench/fio-snia.ts [--dir DIR] [--size-mib N] [--round-sec N]
// Default: the preset as it ships (1 GiB file, 60 s rounds) in .data/bench-fio-snia.
import { randomUUID } from "node:crypto";
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import { Agent } from "../probes/agent/agent";
import { memoryLogger } from "../probes/agent/logger";
import { FakeAgentServer } from "../probes/agent/testing/fake-server";
import { parseFio } from "../probes/fio/parse";
import { fioPresets } from "../probes/fio/params";

const { values } = parseArgs({ options: { dir: { type: "string" }, "size-mib": { type: "string" }, "round-sec": { type: "string" } } });
const preset = fioPresets["snia-iops-steady"]!.params as Record<string, unknown>;
const dir = path.resolve(values.dir ?? path.join(".data", "bench-fio-snia"));
mkdirSync(dir, { recursive: true });
const params = {
  ...preset,
  target: dir,
  ...(values["size-mib"] ? { sizeMiB: Number(values["size-mib"]) } : {}),
  ...(values["round-sec"] ? { sniaRoundSec: Number(values["round-sec"]) } : {}),
};

async function main(): Promise<void> {
  const server = await new FakeAgentServer().start();
  const stateDir = mkdtempSync(path.join(os.tmpdir(), "probebook-bench-snia-"));
  const runId = randomUUID();
  server.jobs.push({ runId, probe: "fio", params });
  const log = memoryLogger();
  const agent = new Agent(
    { server: server.url, token: server.registrationToken, allowDirs: [dir], stateDir, once: true, telemetry: false },
    { log, claimWaitSec: 1, heartbeatIdleMs: 1000, backoff: { baseMs: 5, capMs: 100 }, shutdownFlushMs: 5000 },
  );
  console.log(`fio SNIA-style run: ${JSON.stringify(params)}`);
  const started = Date.now();
  await agent.run();
  const wallSec = (Date.now() - started) / 1000;
  const fin = server.finishes.get(runId);
  server.close();
  rmSync(stateDir, { recursive: true, force: true });

  const parsed = parseFio(server.output(runId));
  if (!parsed.ok) {
    console.error(`the run's output did not parse: ${parsed.error}`, fin);
    process.exit(1);
  }
  const ms = parsed.result.measurements;
  const one = (metric: string) => ms.find((m) => m.metric === metric)?.value ?? null;
  const rounds = ms.filter((m) => m.metric === "round_iops").map((m) => Math.round(m.value));
  const preSec = ms.filter((m) => m.metric === "runtime" && m.dims.step === "precondition").reduce((a, m) => Math.max(a, m.value / 1000), 0);
  const summary = {
    params,
    fio: parsed.result.toolVersion,
    reached: one("ss_reached") === 1,
    rounds: one("ss_rounds"),
    rangePct: one("ss_range"),
    excursionPct: one("ss_excursion"),
    windowIops: one("ss_window_iops"),
    roundIops: rounds,
    preconditionSec: preSec,
    wallSec,
    exitCode: fin?.exitCode ?? null,
    load: os.loadavg(),
  };
  console.log(JSON.stringify(summary, null, 2));
  mkdirSync(path.join("bench", "results"), { recursive: true });
  writeFileSync(path.join("bench", "results", "fio-snia.json"), `${JSON.stringify(summary, null, 2)}\n`);
}

void main();
