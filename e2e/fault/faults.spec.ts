// Fault tests with real processes: each test builds its own Probebook (embedded PostgreSQL,
// migrated database, `next start`, a real agent; e2e/fault/stack.ts) and breaks one part of it
// in the middle of a run — the database, the app server, the agent — or replays an upload.
// Each ends by proving nothing was lost: the seqs stored in run_log_chunks are 0..N without a
// gap, the stored log is byte for byte what the agent sent (recorded by the tap between agent
// and app, since the agent's spool is compacted once acknowledged), every sample line is there
// in order, and the final status says what really happened. The figures go to test-results/fault-results.json.
//
// Every scenario runs twice: with the agent on plain HTTP (--transport http) and on the agent
// socket (--transport socket). The tap records by which transport each upload came, and each
// run checks that all of them came by the one under test, so a socket run cannot pass over HTTP.
import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { WebSocket } from "ws";
import { expect, test } from "../fixtures";
import { AGENT_SOCKET_PATH, AGENT_SOCKET_PROTOCOLS, SOCKET_CLOSE } from "../../probes/protocol/agent-socket";
import { buildSarCommand } from "../../probes/sar/command";
import type { RunView, TapTransport } from "./agent-tap";
import { alive, FaultStack, removeAppRoot, sleep, type FaultAgent } from "./stack";

const execFileP = promisify(execFile);

test.describe.configure({ mode: "serial" });

const FINAL = ["SUCCEEDED", "FAILED", "CANCELLED", "LOST"];
/** A sar -u sample line ("12:45:26        all      0.50 …"), with the 24-hour time sar prints under LC_ALL=C. */
const SAMPLE = /^(\d{2}):(\d{2}):(\d{2})\s+all\s/;

interface RunFigures {
  runId: string;
  probe: string;
  status: string;
  /** lastSeq + 1 of the finish the server accepted: how many chunks the agent produced. */
  chunksProduced: number;
  chunksStored: number;
  lost: number;
  /** Chunk upload requests the agent made, and how many of them failed (no answer or 5xx). */
  uploads: number;
  failedUploads: number;
  /** Chunks the server answered as already stored (a resend after a lost answer). */
  duplicatesIgnored: number;
  sampleLines?: number;
  /** Every upload and finish as the agent made it, in order: "chunks 4..6 → 200 (stored 3, dup 0)". */
  trace: string[];
}

interface ScenarioFigures {
  id: string;
  transport: TapTransport;
  title: string;
  passed: boolean;
  durationSec: number;
  fault: Record<string, number | string | boolean>;
  runs: RunFigures[];
}

const results: ScenarioFigures[] = [];
let current: ScenarioFigures | null = null;

function begin(id: string, transport: TapTransport, title: string): ScenarioFigures {
  current = { id, transport, title, passed: false, durationSec: 0, fault: {}, runs: [] };
  results.push(current);
  return current;
}

test.afterEach(async () => {
  const testInfo = test.info();
  if (current) {
    current.passed = testInfo.status === "passed";
    current.durationSec = Math.round(testInfo.duration / 100) / 10;
  }
  for (const s of FaultStack.live) {
    if (current?.transport !== "socket") break;
    current.fault.socketsOpened = s.tap.socketSessions.length;
    current.fault.socketCloses = s.tap.socketSessions.map((x) => (x.closedAt === null ? "open" : `app ${x.appCode ?? "-"}/agent ${x.agentCode ?? "-"}`)).join("; ");
  }
  current = null;
  // Every stack still up, including one whose creation a timeout interrupted.
  for (const s of [...FaultStack.live]) {
    if (testInfo.status !== testInfo.expectedStatus) {
      await testInfo.attach("next-start.log", { body: s.appLog, contentType: "text/plain" });
      for (const [i, a] of s.agents.entries()) await testInfo.attach(`agent-${i}.log`, { body: a.output(), contentType: "text/plain" });
    }
    const problems = await s.dispose();
    if (problems.length > 0) console.warn(`[fault] teardown problems: ${problems.join("; ")}`);
  }
});

test.afterAll(() => {
  removeAppRoot();
  if (results.length === 0) return;
  // Outside the source tree (a test run must not leave the checkout modified).
  const file = path.join(__dirname, "..", "..", "test-results", "fault-results.json");
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${JSON.stringify({ generatedAt: new Date().toISOString(), scenarios: results }, null, 2)}\n`);
  const rows = results.flatMap((sc) =>
    sc.runs.map((r) => ({
      scenario: sc.id,
      transport: sc.transport,
      passed: sc.passed,
      probe: r.probe,
      status: r.status,
      produced: r.chunksProduced,
      stored: r.chunksStored,
      lost: r.lost,
      duplicates: r.duplicatesIgnored,
      uploads: r.uploads,
      failedUploads: r.failedUploads,
    })),
  );
  console.log(`[fault] figures written to ${path.relative(process.cwd(), file)}`);
  console.table(rows);
});

// ---- checks shared by the scenarios --------------------------------------------------------------

/** Seqs stored for the run are exactly 0..N-1 and the stored log is what the agent sent. */
async function checkDelivery(s: FaultStack, runId: string, probe: string, transport: TapTransport): Promise<RunFigures> {
  const seqs = await s.storedSeqs(runId);
  expect(seqs.length, "the server stored chunks").toBeGreaterThan(0);
  expect(seqs, "stored seqs are contiguous from 0").toEqual(seqs.map((_, i) => i));
  const view = s.tap.runs.get(runId);
  expect(view, "the tap saw the agent's uploads").toBeTruthy();
  expect(view!.conflicts, "a resent seq always carried the same text").toEqual([]);
  expect(new Set([...view!.uploads, ...view!.finishes].map((u) => u.transport)), `every upload and finish came over ${transport}`).toEqual(new Set([transport]));
  // More than one only if an answer was lost and the agent sent the same finish again.
  const accepted = view!.finishes.filter((f) => f.status !== null && f.status < 300);
  expect(accepted.length, "the server accepted the finish").toBeGreaterThan(0);
  expect(new Set(accepted.map((f) => f.body.lastSeq)).size, "every accepted finish names the same lastSeq").toBe(1);
  const produced = accepted[0]!.body.lastSeq + 1;
  expect(seqs.length, "the server holds every chunk the agent produced").toBe(produced);
  expect(view!.chunks.size, "every seq the agent produced went over the wire").toBe(produced);
  const log = await s.runLog(runId);
  expect(log, "the stored log is byte for byte the agent's output").toBe(s.tap.agentLog(runId));
  // Telemetry rides in the same chunks: every sample the agent sent is stored, once.
  const sentTimes = [...view!.telemetry].sort((a, b) => a - b);
  // sar runs last 15–45 s here; the 8 MiB dd may end before its first sample.
  if (probe === "sar") expect(sentTimes.length, "the agent sent telemetry samples").toBeGreaterThan(0);
  expect(await s.storedTelemetryTimes(runId), "every telemetry sample the agent sent is stored").toEqual(sentTimes);
  const ok = view!.uploads.filter((u) => u.status !== null && u.status < 300);
  return {
    runId,
    probe,
    status: (await s.runStatus(runId)).status,
    chunksProduced: produced,
    chunksStored: seqs.length,
    lost: produced - seqs.length,
    uploads: view!.uploads.length,
    failedUploads: view!.uploads.filter((u) => u.status === null || u.status >= 500).length,
    duplicatesIgnored: ok.reduce((n, u) => n + (u.duplicates ?? 0), 0),
    trace: traceOf(view!),
  };
}

function traceOf(view: RunView): string[] {
  const t0 = view.uploads[0]?.at ?? view.finishes[0]?.at ?? 0;
  const when = (at: number) => `+${((at - t0) / 1000).toFixed(1)}s`;
  const answer = (status: number | null) => (status === null ? "no answer" : String(status));
  return [
    ...view.uploads.map((u) => ({
      at: u.at,
      line: `${when(u.at)} chunks ${u.seqs[0]}..${u.seqs.at(-1)} → ${answer(u.status)}${u.stored !== null ? ` (stored ${u.stored}, dup ${u.duplicates})` : ""}`,
    })),
    ...view.finishes.map((f) => ({
      at: f.at,
      line: `${when(f.at)} finish lastSeq ${f.body.lastSeq}${f.body.interrupted ? " interrupted" : ""} → ${answer(f.status)}${
        typeof (f.answer as { status?: unknown } | null)?.status === "string" ? ` (${(f.answer as { status: string }).status})` : ""
      }`,
    })),
  ]
    .sort((a, b) => a.at - b.at)
    .map((e) => e.line);
}

/** sar's sample lines in the log: one per interval, in time order (across midnight too). */
function sampleLines(log: string): string[] {
  const lines = log.split(/\r?\n/).filter((l) => SAMPLE.test(l));
  const secs = lines.map((l) => {
    const [, h, m, sec] = SAMPLE.exec(l)!;
    return Number(h) * 3600 + Number(m) * 60 + Number(sec);
  });
  for (let i = 1; i < secs.length; i++) {
    const step = (secs[i]! - secs[i - 1]! + 86_400) % 86_400;
    expect(step, `sample ${i} follows sample ${i - 1} (${lines[i - 1]} → ${lines[i]})`).toBeGreaterThanOrEqual(1);
    expect(step).toBeLessThanOrEqual(5);
  }
  return lines;
}

/** A completed sar -u run: banner first, `count` samples in order, then the Average line. */
function expectCompleteSar(log: string, count: number): number {
  expect(log.startsWith("Linux "), "the log starts with sar's banner").toBe(true);
  const samples = sampleLines(log);
  expect(samples.length, "every sample sar printed").toBe(count);
  expect(log, "sar's summary line").toMatch(/^Average:\s+all\s/m);
  return samples.length;
}

/** Starts the stack's agent for a new host and waits until it has signed in. */
async function hostWithAgent(s: FaultStack, name: string, transport: TapTransport): Promise<{ hostId: string; agent: FaultAgent }> {
  const host = await s.createHost(name);
  const agent = s.startAgent({ token: host.registrationToken, transport });
  const hostId = await s.agentReady(agent);
  expect(hostId).toBe(host.id);
  return { hostId, agent };
}

const sarParams = (count: number) => ({ target: "/dev/shm", sections: ["u"], interval: 1, count });

// ---- scenarios -----------------------------------------------------------------------------------

/** Ports per transport, so that a scenario's stack never meets the other transport's leftovers. */
const PORTS: Record<TapTransport, number> = { http: 3330, socket: 3340 };

for (const transport of ["http", "socket"] as const) {
  test.describe(`over ${transport}`, () => {
    const port = (n: number) => PORTS[transport] + n;

    test("PostgreSQL restarted during a run: the pool recovers, nothing is lost", async () => {
      test.setTimeout(120_000);
      const sc = begin("postgres-restart", transport, "PostgreSQL stopped for ~5 s during sar -u 1 15, then started on the same port and data dir");
      const s = await FaultStack.create({ label: `pg-restart-${transport}`, appPort: port(0), tapPort: port(1) });
      const { hostId } = await hostWithAgent(s, "fault-pg-restart", transport);
      const runId = await s.createRun(hostId, "sar", sarParams(15));
      await expect.poll(() => s.tap.acknowledgedSeqs(runId), { timeout: 20_000 }).toBeGreaterThanOrEqual(4);
      const before = await s.runLog(runId);

      const t0 = Date.now();
      await s.stopPostgres();
      // The app stays up and says the database is away, rather than hanging or dying.
      const health = await fetch(`${s.appUrl}/api/health`, { signal: AbortSignal.timeout(10_000) });
      expect(health.status, "/api/health while PostgreSQL is down").toBe(503);
      await sleep(5_000);
      await s.startPostgres();
      sc.fault.outageSec = Math.round((Date.now() - t0) / 100) / 10;
      sc.fault.pgPort = s.pgPort;

      expect(await s.waitForStatus(runId, FINAL, 60_000), "final status").toBe("SUCCEEDED");
      const fig = await checkDelivery(s, runId, "sar", transport);
      const log = await s.runLog(runId);
      expect(log.startsWith(before), "what was stored before the restart is unchanged").toBe(true);
      fig.sampleLines = expectCompleteSar(log, 15);
      // The outage was real for the agent: uploads failed and were retried.
      expect(fig.failedUploads, "uploads refused while PostgreSQL was down").toBeGreaterThan(0);
      // The one pool (Prisma's queries and the hot paths' plain pg) serves again without an app restart.
      expect((await fetch(`${s.appUrl}/api/health`)).status).toBe(200);
      expect(s.app && s.app.exitCode === null, "next start survived the database restart").toBe(true);
      sc.fault.appCrashed = false;
      // Survived, but how: an error nobody handled reaches Next's process-wide uncaughtException
      // logger. Recorded (and annotated) rather than failed: the data path recovered.
      const uncaught = s.uncaughtErrors();
      sc.fault.appUncaughtExceptions = uncaught.length;
      if (uncaught.length > 0) {
        sc.fault.appUncaughtExample = uncaught[0]!;
        test.info().annotations.push({ type: "issue", description: `next start logged ${uncaught.length} uncaughtException(s) when PostgreSQL stopped: ${uncaught[0]}` });
      }
      sc.runs.push(fig);
    });

    test("app server stopped for 30 s during a run: the agent spools and delivers afterwards", async () => {
      test.setTimeout(150_000);
      const sc = begin("app-down-30s", transport, "next start stopped (SIGTERM) for 30 s during sar -u 1 45, then started again on the same port and database");
      const s = await FaultStack.create({ label: `app-down-${transport}`, appPort: port(2), tapPort: port(3) });
      const { hostId, agent } = await hostWithAgent(s, "fault-app-down", transport);
      const runId = await s.createRun(hostId, "sar", sarParams(45));
      await expect.poll(() => s.tap.acknowledgedSeqs(runId), { timeout: 20_000 }).toBeGreaterThanOrEqual(4);
      const before = await s.runLog(runId);

      const t0 = Date.now();
      const stopped = await s.stopApp("SIGTERM");
      const ackedBefore = s.tap.acknowledgedSeqs(runId);
      sc.fault.appExitMs = stopped.exitMs;
      sc.fault.appKilledAfterTimeout = stopped.forced;
      await sleep(30_000 - (Date.now() - t0));
      // The agent kept the output in its write-ahead spool meanwhile.
      const waiting = spoolSeqs(agent.stateDir, runId).filter((q) => q >= ackedBefore).length;
      sc.fault.chunksSpooledWhileDown = waiting;
      expect(waiting, "chunks waiting in the spool while the app was down").toBeGreaterThanOrEqual(20);
      const unreachableWhileDown = s.tap.unreachable;
      // Requests (HTTP) or connection attempts (socket) that found no app: the agent's retry pace.
      sc.fault.attemptsWithoutAppWhileDown = unreachableWhileDown;
      await s.startApp();
      const up = Date.now();
      sc.fault.outageSec = Math.round((up - t0) / 100) / 10;
      // Still RUNNING: 30 s of silence is under the 60 s after which the sweeper calls a run LOST.
      sc.fault.statusAfterRestart = (await s.runStatus(runId)).status;
      expect(sc.fault.statusAfterRestart).toBe("RUNNING");

      const status = await s.waitForStatus(runId, FINAL, 60_000);
      if (status === "LOST") console.warn(`[fault] run ${runId} was marked LOST after a 30 s app outage`);
      expect(status, "final status (LOST here would mean the 60 s sweeper fired after a 30 s outage)").toBe("SUCCEEDED");
      const fig = await checkDelivery(s, runId, "sar", transport);
      const log = await s.runLog(runId);
      expect(log.startsWith(before)).toBe(true);
      fig.sampleLines = expectCompleteSar(log, 45);
      if (transport === "http") expect(fig.failedUploads, "uploads that found no server").toBeGreaterThan(0);
      else {
        // Over the socket the agent sends nothing while it has no socket: the outage shows as the
        // app's 1001 on shutdown and reconnects that found no app, then a new socket once it is back.
        const goingAway = s.tap.socketSessions.findIndex((x) => x.appCode === 1001);
        expect(goingAway, "the app closed the agent's socket with 1001 on SIGTERM").toBeGreaterThanOrEqual(0);
        expect(unreachableWhileDown, "the agent tried to reconnect while the app was down").toBeGreaterThan(0);
        const after = s.tap.socketSessions.slice(goingAway + 1);
        expect(after.length, "the agent opened a new socket after the restart").toBeGreaterThan(0);
        // Negative: the agent was back on before /api/health first answered 200.
        sc.fault.socketReopenedMsAfterAppHealthy = after[0]!.openedAt - up;
      }
      const resumed = s.tap.runs.get(runId)!.uploads.find((u) => u.at >= t0 && u.status !== null && u.status < 300);
      if (resumed) sc.fault.firstDeliveryMsAfterAppHealthy = resumed.at - up;
      sc.runs.push(fig);
    });

    test("agent killed with SIGKILL mid-run and restarted: the run is LOST with its output, the agent works on", async () => {
      test.setTimeout(120_000);
      const sc = begin("agent-kill-9", transport, "agent kill -9 during sar -u 1 30 with output still unacknowledged, restarted on the same --state-dir; then a new dd run");
      const s = await FaultStack.create({ label: `agent-kill-${transport}`, appPort: port(4), tapPort: port(5) });
      const { hostId, agent } = await hostWithAgent(s, "fault-agent-kill", transport);
      const runId = await s.createRun(hostId, "sar", sarParams(30));
      // Telemetry samples ride in chunks of their own between sar's lines: about two chunks a second.
      await expect.poll(() => s.tap.acknowledgedSeqs(runId), { timeout: 20_000 }).toBeGreaterThanOrEqual(8);
      // Uploads stop reaching the app for a moment, so that at the kill the spool holds output the
      // server has never seen: only the write-ahead spool can bring it back.
      s.tap.hold();
      const acked = s.tap.acknowledgedSeqs(runId);
      await expect.poll(() => spoolSeqs(agent.stateDir, runId).filter((q) => q >= acked).length, { timeout: 15_000 }).toBeGreaterThanOrEqual(6);

      const killed = await agent.kill9();
      expect(killed.agentPids.length, "the agent's own node process was found and killed").toBe(1);
      await expect.poll(() => killed.agentPids.filter(alive).length, { timeout: 5_000, message: "the agent is dead" }).toBe(0);
      const spooled = spoolSeqs(agent.stateDir, runId);
      const before = await s.runLog(runId);
      sc.fault.chunksAcknowledgedAtKill = acked;
      sc.fault.chunksOnlyInSpoolAtKill = spooled.filter((q) => q >= acked).length;
      // The probe loses its terminal with the agent and ends; it must not run on unobserved.
      await expect.poll(() => killed.probePids.filter(alive).length, { timeout: 5_000, message: "sar ended with the agent" }).toBe(0);

      s.tap.release();
      const restarted = s.startAgent({ stateDir: agent.stateDir, transport });
      expect(await s.agentReady(restarted)).toBe(hostId);
      expect(await s.waitForStatus(runId, FINAL, 30_000), "final status").toBe("LOST");
      const run = await s.runStatus(runId);
      expect(run.error).toMatch(/agent stopped while the probe was running/);
      const fig = await checkDelivery(s, runId, "sar", transport);
      const finish = s.tap.runs.get(runId)!.finishes.find((f) => f.status === 200)!;
      expect(finish.body.interrupted, "the restarted agent finished the run as interrupted").toBe(true);
      expect(fig.chunksStored, "every chunk that reached the spool before the kill was delivered").toBe(Math.max(...spooled) + 1);
      const log = await s.runLog(runId);
      expect(log.startsWith(before), "everything stored before the kill is kept").toBe(true);
      expect(log.length, "the replay added what only the spool had").toBeGreaterThan(before.length);
      fig.sampleLines = sampleLines(log).length;
      expect(fig.sampleLines).toBeGreaterThanOrEqual(5);
      expect(fig.sampleLines).toBeLessThan(30);
      expect(log, "no summary: sar did not complete").not.toMatch(/^Average:/m);
      sc.runs.push(fig);

      // The restarted agent takes new work and completes it.
      const ddId = await s.createRun(hostId, "dd", { target: "/dev/shm", sizeMiB: 8 });
      expect(await s.waitForStatus(ddId, FINAL, 30_000), "the new run's status").toBe("SUCCEEDED");
      const dd = await checkDelivery(s, ddId, "dd", transport);
      expect(await s.runLog(ddId)).toMatch(/8388608 bytes .* copied/);
      sc.runs.push(dd);
    });

    test("the same chunks delivered twice: stored once, counted as duplicates", async () => {
      test.setTimeout(90_000);
      const how = transport === "http" ? "POSTed" : "sent as socket frames (through the tap)";
      const sc = begin("duplicate-delivery", transport, `a chunk batch ${how} twice (and an overlapping one) for a claimed run of a second host`);
      const s = await FaultStack.create({ label: `dup-${transport}`, appPort: port(6), tapPort: port(7) });
      const { agent, hostId: agentHostId } = await hostWithAgent(s, "fault-dup-agent", transport);
      // The real agent's credential, from its state dir: it belongs to another host than the run.
      const otherCredential = (JSON.parse(fs.readFileSync(path.join(agent.stateDir, "credential.json"), "utf8")) as { credential: string }).credential;

      // A second host, registered by hand the way an agent does it.
      const host = await s.createHost("fault-dup-manual");
      const reg = await s.api.post("/api/agent/register", {
        headers: { Authorization: "" },
        data: {
          registrationToken: host.registrationToken,
          profile: {},
          capabilities: { agentVersion: "fault-test", tools: { sar: { installed: true, version: null, path: "/usr/bin/sar" } }, allowedDirs: ["/dev/shm"] },
        },
      });
      expect(reg.status()).toBe(201);
      const { credential } = (await reg.json()) as { credential: string };
      const asAgent = (c: string) => ({ Authorization: `Bearer ${c}` });
      // One agent operation by hand: a POST to the app, or a request frame on a raw agent socket
      // (one per credential, through the tap, which must record these frames as socket uploads).
      const sockets = new Map<string, AgentSocketClient>();
      const call = async (c: string, route: string, data: unknown): Promise<{ status: number; body: unknown }> => {
        if (transport === "http") {
          const r = await s.api.post(route, { headers: asAgent(c), data });
          return { status: r.status(), body: r.ok() ? await r.json() : null };
        }
        let sock = sockets.get(c);
        if (!sock) sockets.set(c, (sock = await openAgentSocket(s.tap.url, c)));
        const r = await sock.call(route, data);
        return { status: r.status, body: r.status < 300 ? r.body : null };
      };

      const runId = await s.createRun(host.id, "sar", sarParams(3));
      const claim = await call(credential, "/api/agent/jobs/claim", { waitSec: 0 });
      expect(claim.status).toBe(200);
      expect((claim.body as { runId: string }).runId).toBe(runId);

      // Real sar output, run the way the agent runs it, one line per chunk.
      const cmd = buildSarCommand({ target: "/dev/shm", sections: ["u"], interval: 1, count: 3 } as Parameters<typeof buildSarCommand>[0], "/dev/shm");
      const { stdout } = await execFileP(cmd.file, cmd.args, { env: { ...process.env, ...cmd.env }, cwd: cmd.cwd });
      const lines = stdout.match(/[^\n]*\n|[^\n]+$/g)!;
      const chunks = lines.map((data, seq) => ({ seq, data }));
      const head = chunks.slice(0, 4);

      // Every request of this test and its answer, for the figures.
      const trace: string[] = [];
      let uploads = 0;
      let duplicates = 0;
      const post = async (c: string, batch: { seq: number; data: string }[], why = "") => {
        const r = await call(c, `/api/agent/runs/${runId}/chunks`, { chunks: batch });
        const body = r.body as { stored: number; duplicates: number; cancelRequested: boolean } | null;
        if (body) {
          uploads++;
          duplicates += body.duplicates;
        }
        trace.push(`chunks ${batch[0]!.seq}..${batch.at(-1)!.seq}${why} → ${r.status}${body ? ` (stored ${body.stored}, dup ${body.duplicates})` : ""}`);
        return { status: r.status, body };
      };
      const finish = async (body: Record<string, unknown>, why = "") => {
        const r = await call(credential, `/api/agent/runs/${runId}/finish`, body);
        const answer = r.body as { status: string } | null;
        trace.push(`finish lastSeq ${String(body.lastSeq)}${why} → ${r.status}${answer ? ` (${answer.status})` : ""}`);
        return { status: r.status, body: answer };
      };

      const first = await post(credential, head);
      expect(first.status).toBe(200);
      expect(first.body).toMatchObject({ stored: head.length, duplicates: 0 });
      const again = await post(credential, head, " again");
      expect(again.status).toBe(200);
      expect(again.body, "the second delivery stores nothing").toMatchObject({ stored: 0, duplicates: head.length });
      expect(await s.runLog(runId), "the log holds the data once").toBe(head.map((c) => c.data).join(""));
      expect(await s.storedSeqs(runId)).toEqual(head.map((c) => c.seq));

      // A resend overlapping what is stored (what an agent does after losing an answer): only the new seqs count.
      const overlap = chunks.slice(2);
      const third = await post(credential, overlap, " overlapping");
      expect(third.body).toMatchObject({ stored: overlap.length - 2, duplicates: 2 });

      // Another host's credential cannot add to this run.
      const foreign = await post(otherCredential, [{ seq: chunks.length, data: "injected\n" }], " with the other host's credential");
      expect(foreign.status).toBe(403);

      const finishBody = { exitCode: 0, signal: null, durationMs: 3000, lastSeq: chunks.length - 1, error: null, profile: null };
      // A finish claiming more than the server holds is refused until the rest arrives.
      expect((await finish({ ...finishBody, lastSeq: chunks.length }, " (one chunk too many)")).status).toBe(409);
      const fin = await finish(finishBody);
      expect(fin.status).toBe(200);
      expect(fin.body).toMatchObject({ status: "SUCCEEDED" });
      // A repeated finish (say, its first answer was lost) changes nothing.
      expect((await finish({ ...finishBody, exitCode: 1 }, " again, exit 1")).body).toMatchObject({ status: "SUCCEEDED" });

      const seqs = await s.storedSeqs(runId);
      expect(seqs).toEqual(chunks.map((c) => c.seq));
      const log = await s.runLog(runId);
      expect(log, "the stored log is sar's output, once").toBe(stdout);
      const samples = sampleLines(log).length;
      expect(samples).toBe(3);
      expect(log).toMatch(/^Average:\s+all\s/m);
      const run = await s.runStatus(runId);
      expect(run.status).toBe("SUCCEEDED");
      sc.fault.foreignCredentialRefused = true;
      sc.fault.incompleteFinishRefused = true;
      if (transport === "socket") {
        // These went as socket frames, and the tap matched each reply to its request.
        const view = s.tap.runs.get(runId);
        expect(view?.uploads.map((u) => [u.transport, u.status]), "the tap saw every chunk frame and its reply").toEqual([
          ["socket", 200],
          ["socket", 200],
          ["socket", 200],
          ["socket", 403],
        ]);
        expect(view?.finishes.map((f) => [f.transport, f.status])).toEqual([
          ["socket", 409],
          ["socket", 200],
          ["socket", 200],
        ]);
        // Close codes cross the tap: a malformed frame (4400), and a host deleted under its agent (4401).
        const bad = await openAgentSocket(s.tap.url, credential);
        bad.ws.send("not json");
        expect((await bad.closed).code, "a malformed frame closes the socket with 4400").toBe(SOCKET_CLOSE.malformed);
        const doomed = await openAgentSocket(s.tap.url, otherCredential);
        expect((await s.api.delete(`/api/hosts/${agentHostId}`)).status()).toBe(200);
        const closed = await Promise.race([doomed.closed, sleep(5_000).then(() => null)]);
        expect(closed?.code, "the deleted host's socket is closed with 4401 within 5 s").toBe(SOCKET_CLOSE.revoked);
        // A refused upgrade reaches the agent as the app answered it: the deleted host's credential gets 401.
        const refusal = await refusedUpgrade(s.tap.url, otherCredential);
        expect(refusal.status, "an upgrade on a dead credential is refused with 401 through the tap").toBe(401);
        expect(JSON.parse(refusal.body) as unknown).toMatchObject({ error: expect.any(String) });
        sc.fault.closeCodesRelayed = "4400, 4401; upgrade refused 401";
        for (const sock of sockets.values()) sock.ws.close();
      }
      sc.runs.push({
        runId,
        probe: "sar",
        status: run.status,
        chunksProduced: chunks.length,
        chunksStored: seqs.length,
        lost: chunks.length - seqs.length,
        uploads,
        failedUploads: 0,
        duplicatesIgnored: duplicates,
        sampleLines: samples,
        trace,
      });
    });
  });
}

interface AgentSocketClient {
  ws: WebSocket;
  /** The close code and reason, once closed. */
  closed: Promise<{ code: number; reason: string }>;
  call(route: string, body: unknown): Promise<{ status: number; body: unknown }>;
}

/** A raw agent socket on a credential, as an agent opens it: request frames, replies matched by id. */
async function openAgentSocket(base: string, credential: string): Promise<AgentSocketClient> {
  const ws = new WebSocket(`${base.replace(/^http/, "ws")}${AGENT_SOCKET_PATH}`, [...AGENT_SOCKET_PROTOCOLS], { headers: { Authorization: `Bearer ${credential}` } });
  const closed = new Promise<{ code: number; reason: string }>((resolve) => ws.once("close", (code, reason) => resolve({ code, reason: reason.toString() })));
  await new Promise<void>((resolve, reject) => {
    ws.once("open", () => resolve());
    ws.once("error", reject);
  });
  expect(ws.protocol, "the tap echoes the version the app picked").toBe(AGENT_SOCKET_PROTOCOLS.at(-1));
  const waiting = new Map<number, (r: { status: number; body: unknown }) => void>();
  ws.on("message", (d: Buffer) => {
    const r = JSON.parse(d.toString()) as { id: number; status: number; body?: unknown };
    waiting.get(r.id)?.({ status: r.status, body: r.body });
    waiting.delete(r.id);
  });
  let next = 1;
  return {
    ws,
    closed,
    call: (route, body) =>
      new Promise((resolve, reject) => {
        const id = next++;
        waiting.set(id, resolve);
        ws.send(JSON.stringify({ id, path: route, body }));
        void closed.then((c) => reject(new Error(`the socket closed (${c.code} ${c.reason}) before reply ${id}`)));
      }),
  };
}

/** The HTTP answer to an agent socket upgrade the server refuses (status 0: the connection dropped; 101: accepted). */
function refusedUpgrade(base: string, credential: string): Promise<{ status: number; body: string }> {
  return new Promise((resolve) => {
    const ws = new WebSocket(`${base.replace(/^http/, "ws")}${AGENT_SOCKET_PATH}`, [...AGENT_SOCKET_PROTOCOLS], { headers: { Authorization: `Bearer ${credential}` } });
    ws.on("unexpected-response", (req, res) => {
      let body = "";
      res.on("data", (d: Buffer) => (body += d.toString()));
      res.on("end", () => {
        req.destroy();
        resolve({ status: res.statusCode ?? 0, body });
      });
    });
    ws.on("open", () => {
      ws.close();
      resolve({ status: 101, body: "" });
    });
    ws.on("error", () => resolve({ status: 0, body: "" }));
  });
}

/** Seqs in the agent's spool for a run (any segment still on disk). */
function spoolSeqs(stateDir: string, runId: string): number[] {
  const dir = path.join(stateDir, "spool", runId);
  const seqs = new Set<number>();
  let names: string[] = [];
  try {
    names = fs.readdirSync(dir).filter((n) => n.endsWith(".jsonl"));
  } catch {
    return [];
  }
  for (const n of names) {
    for (const line of fs.readFileSync(path.join(dir, n), "utf8").split("\n")) {
      try {
        const rec = JSON.parse(line) as { seq?: unknown };
        if (typeof rec.seq === "number") seqs.add(rec.seq);
      } catch {
        // a torn last line
      }
    }
  }
  return [...seqs].sort((a, b) => a - b);
}
