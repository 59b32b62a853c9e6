// The SNIA-style run end to end in the real agent with the real fio: the precondition, one fio
// process per round, the rule between rounds, and a cancel that keeps the rounds that ran.
import { randomUUID } from "node:crypto";
import { mkdirSync, mkdtempSync, readdirSync, realpathSync, rmSync } from "node:fs";
import path from "node:path";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { Agent } from "../../agent/agent";
import { memoryLogger } from "../../agent/logger";
import { FakeAgentServer } from "../../agent/testing/fake-server";
import { splitSteps } from "../../core/steps";
import { parseFio } from "../parse";
import { SNIA_MAX_ROUNDS } from "./rule";

// On the disk (not tmpfs): the rounds use O_DIRECT.
const root = realpathSync(mkdtempSync(path.join(process.cwd(), ".snia-test-")));
const allowed = path.join(root, "allowed");
mkdirSync(allowed);
afterAll(() => rmSync(root, { recursive: true, force: true }));

let server: FakeAgentServer;
let stateDir: string;
beforeEach(async () => {
  server = await new FakeAgentServer().start();
  stateDir = mkdtempSync(path.join(root, "state-"));
});
afterEach(() => server.close());

const sniaJob = () => ({
  runId: randomUUID(),
  probe: "fio",
  params: { target: allowed, rw: "randwrite", blockSizeKiB: 4, sizeMiB: 16, ioengine: "libaio", iodepth: 8, numjobs: 1, direct: true, sniaRoundSec: 1 },
});

function agent() {
  const log = memoryLogger();
  const a = new Agent(
    { server: server.url, token: server.registrationToken, allowDirs: [allowed], stateDir, once: true, telemetry: false },
    { log, claimWaitSec: 1, heartbeatIdleMs: 200, backoff: { baseMs: 5, capMs: 100 }, shutdownFlushMs: 2000 },
  );
  return { agent: a, log };
}

describe("SNIA-style fio run in the agent", () => {
  it("preconditions, runs one fio per round and stops when the rule says so", async () => {
    const job = sniaJob();
    server.jobs.push(job);
    const { agent: a, log } = agent();
    expect((await a.run()).code).toBe(0);
    const fin = server.finishes.get(job.runId);
    expect(fin).toMatchObject({ exitCode: 0, cancelled: false, timedOut: false, error: null });
    const output = server.output(job.runId);
    const steps = splitSteps(output);
    // The precondition wrote the file twice, sequentially (2 × 16 MiB).
    expect(steps[0]!.output).toMatch(/"jobname" : "precondition"/);
    const parsed = parseFio(output);
    if (!parsed.ok) throw new Error(parsed.error);
    const ms = parsed.result.measurements;
    const one = (metric: string) => ms.find((m) => m.metric === metric)?.value;
    const rounds = ms.filter((m) => m.metric === "round_iops");
    expect(rounds.length).toBe(steps.length - 1);
    expect(rounds.every((r) => r.value > 0)).toBe(true);
    expect(one("ss_rounds")).toBe(rounds.length);
    // It stopped at the first steady window, or ran the whole 25 rounds without one.
    if (one("ss_reached") === 1) {
      expect(rounds.length).toBeGreaterThanOrEqual(5);
      expect(rounds.length).toBeLessThan(SNIA_MAX_ROUNDS + 1);
      expect(one("ss_range")).toBeLessThanOrEqual(20);
      expect(one("ss_excursion")).toBeLessThanOrEqual(10);
    } else {
      expect(rounds.length).toBe(SNIA_MAX_ROUNDS);
      expect(parsed.result.warnings).toContain(`steady state not reached in ${SNIA_MAX_ROUNDS} rounds`);
    }
    const preBytes = ms.filter((m) => m.metric === "io_bytes" && m.dims.step === "precondition" && m.dims.direction === "write");
    expect(preBytes.reduce((a2, m) => a2 + m.value, 0)).toBe(2 * 16 * 1024 * 1024);
    // Every round was its own fio process (argv logged per step), in the run directory, removed after.
    expect(log.lines.filter((l) => / step \d+: \S*fio --name=snia-randwrite/.test(l)).length).toBe(rounds.length);
    expect(readdirSync(allowed)).toEqual([]);
  }, 120_000);

  it("a cancel stops the round that runs, starts no other and keeps the rounds that ran", async () => {
    const job = sniaJob();
    server.jobs.push(job);
    const { agent: a } = agent();
    const running = a.run();
    // Cancel once round 2 has started (its step frame is in the output).
    await server.waitFor(() => server.output(job.runId).includes("[probebook step 3]"), 60_000);
    server.cancelRequested.add(job.runId);
    await server.waitFor(() => server.finishes.has(job.runId), 10_000);
    expect((await running).code).toBe(0);
    expect(server.finishes.get(job.runId)).toMatchObject({ cancelled: true });
    const output = server.output(job.runId);
    expect(splitSteps(output).length).toBeLessThanOrEqual(4);
    const parsed = parseFio(output);
    if (!parsed.ok) throw new Error(parsed.error);
    const rounds = parsed.result.measurements.filter((m) => m.metric === "round_iops");
    expect(rounds.length).toBeGreaterThanOrEqual(1);
    expect(parsed.result.measurements.find((m) => m.metric === "ss_reached")?.value).toBe(0);
    expect(parsed.result.warnings.join(" ")).toMatch(/steady state not reached: the run ended after \d+ of at most 25 rounds/);
    expect(readdirSync(allowed)).toEqual([]);
  }, 120_000);
});
