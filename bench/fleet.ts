// Fleet benchmark (issue "Performance at fleet scale"): N simulated agents on loopback against
// one or more production instances (scripts/serve.ts) on one fresh embedded PostgreSQL, over
// HTTP (long-polls) and over the agent socket, one transport after the other in the same run.
// For each N and transport it measures the idle fleet — CPU of the app instances and of
// PostgreSQL from /proc/<pid>/stat, each instance's RSS, statements per second by statement —
// then queues runs at a steady rate and measures pickup (queue → claim answered) and live output
// (line uploaded → line in a browser's SSE stream, on another instance than the agent's when
// there are several). For the socket, a reconnect storm follows: every instance is restarted
// under its idle, connected fleet, and the bench measures how long until every agent is connected
// again, the pickup of runs queued right after, and the errors. Bounded in agents and time; stops
// by itself and says why. Prints the figures side by side; writes bench/results/fleet.json.
//   npx tsx bench/fleet.ts [--agents 100,1000,3000] [--transport http,socket] [--instances 1]
//                          [--stale-build | --build] [--idle-sec 100] [--load-sec 30] [--rate 3]
//                          [--lines 10] [--minutes 20] [--idle-heartbeat-sec S] [--spread-sec 50]
//                          [--port P (instance i on P+i)] [--skip-storm] [--storm-sec 120] [--out FILE]
//                          [--agents-per-process 15000]
// Each agent holds a file descriptor in the process that runs it and one in its instance: the
// bench runs up to --agents-per-process agents itself (runs are queued on those) and the rest,
// idle, in child processes of that many each; `ulimit -n` must exceed that count plus a few hundred
// (the instances inherit the bench's limit, and each holds its share of the fleet).
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { parseArgs } from "node:util";
import pg from "pg";
import { generateSecret, hashSecret } from "../lib/auth/secret-token";
import { IDLE_HEARTBEAT_MS } from "../probes/agent/heartbeat";
import { SOCKET_CLAIM_WAIT_SEC } from "../probes/protocol/agent-socket";
import { CLAIM_WAIT_SEC } from "../probes/protocol/schemas";
import { createOperatorToken, FAKE_CAPABILITIES, mapLimit, UserApi } from "./lib/api";
import { newSocketCounters, TRANSPORTS, type Transport } from "./lib/agent-socket-client";
import { cleanupAll, cleanupOnSignals, onCleanup } from "./lib/cleanup";
import { FleetAgent, type FleetCounters } from "./lib/fleet-agent";
import { Ballast } from "./lib/fleet-ballast";
import { runLoad } from "./lib/fleet-load";
import { StatementCounter } from "./lib/pg-statements";
import { commName, descendants, groupCpuMeter, machineCpuMeter } from "./lib/proc";
import { describeMachine, renderCompareTable, writeJson, type CompareRow } from "./lib/report";
import { root, startCluster } from "./lib/server";
import { nowMs, round, summarize } from "./lib/stats";

const DATA_DIR = path.join(root, ".data", "bench-fleet");
const resultsFile = (instances: number) => path.join(root, "bench", "results", instances === 1 ? "fleet.json" : instances === 2 ? "fleet-two-instances.json" : `fleet-${instances}-instances.json`);
const say = (m: string) => console.error(`[fleet] ${m}`);
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
const loadAvg = () => os.loadavg().map((x) => round(x, 2));

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.once("error", reject);
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as net.AddressInfo).port;
      s.close(() => resolve(port));
    });
  });
}

function rssMiB(pids: number[]): number {
  let kb = 0;
  for (const pid of pids) {
    try {
      const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"));
      kb += Number(m?.[1] ?? 0);
    } catch {
      // gone
    }
  }
  return kb / 1024;
}

/** The issue's targets (at 10,000 agents on one instance; reported at every size). */
const TARGET = { idlePctCore: 10, rssMiB: 512, pickupP95Ms: 1000, stormSettleSec: 30 };

const sum = (xs: number[]) => xs.reduce((a, b) => a + b, 0);
const errorCount = (c: FleetCounters) => sum(Object.values(c.errors)) + sum(Object.values(c.socket.errors));
const brief = (xs: number[]) => (({ n, p50, p95, max }) => ({ n, p50: round(p50), p95: round(p95), max: round(max) }))(summarize(xs));

async function main(): Promise<number> {
  const { values: f } = parseArgs({
    options: {
      agents: { type: "string", default: "100,1000,3000" },
      transport: { type: "string", default: TRANSPORTS.join(",") },
      instances: { type: "string", default: "1" },
      /** The older spelling of --instances 2. */
      "two-instances": { type: "boolean" },
      build: { type: "boolean" },
      "stale-build": { type: "boolean" },
      // Two claim waits at least: an idle HTTP agent polls once per 40–50 s, so a shorter window
      // can fall between two bursts of a fleet that started together and see almost nothing.
      "idle-sec": { type: "string", default: "100" },
      "load-sec": { type: "string", default: "30" },
      rate: { type: "string", default: "3" },
      lines: { type: "string", default: "10" },
      minutes: { type: "string", default: "20" },
      "idle-heartbeat-sec": { type: "string" },
      "enrol-api": { type: "string", default: "200" },
      // Over how many seconds the agents' first polls (or socket connections) are scattered: one
      // claim wait models a fleet that has been up a while; 0 models every agent starting at once.
      "spread-sec": { type: "string", default: String(CLAIM_WAIT_SEC) },
      port: { type: "string" },
      "skip-storm": { type: "boolean" },
      // The longest the bench waits for a restarted fleet to be connected again.
      "storm-sec": { type: "string", default: "120" },
      // Where the JSON goes (a smoke run should not replace the committed figures).
      out: { type: "string" },
      // Agents past this many run, idle, in child processes of this many each (the open-files limit is per process).
      "agents-per-process": { type: "string", default: "15000" },
    },
  });
  const counts = f.agents.split(",").map(Number);
  if (counts.some((n) => !Number.isInteger(n) || n < 1 || n > 30_000)) throw new Error("--agents takes counts from 1 to 30000, such as 100,1000");
  const transports = f.transport.split(",").map((t) => t.trim()) as Transport[];
  if (!transports.length || transports.some((t) => !(TRANSPORTS as readonly string[]).includes(t))) throw new Error(`--transport takes ${TRANSPORTS.join(", ")} or both, separated by a comma`);
  const instanceCount = f["two-instances"] ? 2 : Number(f.instances);
  if (!Number.isInteger(instanceCount) || instanceCount < 1 || instanceCount > 8) throw new Error("--instances takes a count from 1 to 8");
  const idleSec = Number(f["idle-sec"]);
  const loadSec = Number(f["load-sec"]);
  const rate = Number(f.rate);
  const lines = Number(f.lines);
  const spreadMs = Number(f["spread-sec"]) * 1000;
  const firstPollDelay = () => Math.random() * spreadMs;
  const deadline = Date.now() + Number(f.minutes) * 60_000;
  // What the agent does when idle, unless told otherwise (to measure an older agent's beats).
  const idleHeartbeatMs = f["idle-heartbeat-sec"] !== undefined ? Number(f["idle-heartbeat-sec"]) * 1000 || null : IDLE_HEARTBEAT_MS;
  cleanupOnSignals();
  const machine = describeMachine();
  const t0 = Date.now();
  const RESULTS = f.out ? path.resolve(f.out) : resultsFile(instanceCount);
  // Each agent holds one socket in this process (its socket, or its open long-poll) and one in its
  // instance; past the limit the largest step would fail half-way with EMFILE, so say so now.
  const fdLimit = openFilesLimit();
  const perProcess = Number(f["agents-per-process"]);
  if (!Number.isInteger(perProcess) || perProcess < 100) throw new Error("--agents-per-process takes a count of at least 100");
  const fdsNeeded = Math.min(Math.max(...counts), perProcess) + 500;
  if (fdLimit < fdsNeeded) {
    throw new Error(
      `the open-files limit is ${fdLimit} and ${Math.min(Math.max(...counts), perProcess)} agents in one process need about ${fdsNeeded} descriptors: ` +
        "raise it (`ulimit -n 65536`; past the hard limit, `ulimit -Hn`, it takes root or the container's nofile setting) or lower --agents-per-process",
    );
  }

  process.env.PROBEBOOK_PG_PRELOAD = "pg_stat_statements";
  // One operator enrols the whole fleet: the per-user caps (200 hosts, 10 unused tokens) are
  // raised as an administrator of a fleet would (README.md, "Enrolling a fleet").
  process.env.PROBEBOOK_MAX_HOSTS_PER_USER ??= "30000";
  process.env.PROBEBOOK_MAX_PENDING_REGISTRATIONS ??= "64";
  onCleanup("bench data dir", () => fs.rmSync(DATA_DIR, { recursive: true, force: true }));
  const basePort = f.port ?? process.env.E2E_PORT;
  const ports = basePort ? Array.from({ length: instanceCount }, (_, i) => Number(basePort) + i) : await Promise.all(Array.from({ length: instanceCount }, freePort));
  say(`starting the database and ${instanceCount} instance(s) on port(s) ${ports.join(", ")}`);
  const cluster = await startCluster({ ports, dataDir: DATA_DIR, ifStale: f.build ? "build" : f["stale-build"] ? "serve" : "refuse" });
  const { instances } = cluster;
  const main0 = instances[0]!;
  const groups = () => {
    const out: Record<string, number[]> = {};
    instances.forEach((inst, i) => (out[`app ${i}`] = [inst.pid, ...descendants(inst.pid).filter((p) => commName(p) !== "postgres")]));
    out.postgres = descendants(process.pid).filter((p) => commName(p) === "postgres");
    // The bench's own idle agents in child processes: the bench's cost, not the server's.
    out["bench children"] = ballast?.pids ?? [];
    return out;
  };
  const appPct = (cpu: Record<string, number>) => sum(instances.map((_, i) => cpu[`app ${i}`] ?? 0));
  const perInstance = (cpu: Record<string, number>) => instances.map((_, i) => round(cpu[`app ${i}`] ?? 0, 1));
  const statements = await StatementCounter.open(cluster.databaseUrl);
  onCleanup("statement counter", () => statements.close());
  const user = new UserApi(main0.url, await createOperatorToken(cluster.databaseUrl));

  const enrolled: { hostId: string; credential: string }[] = [];
  let fleet: FleetAgent[] = [];
  let ballast: Ballast | null = null;
  onCleanup("simulated agents", () => fleet.forEach((a) => a.stop()));
  const steps: Step[] = [];
  let stoppedBecause: string | null = null;
  const writePartial = () => writeJson(RESULTS, { partial: true, generatedAt: new Date().toISOString(), machine, steps });

  outer: for (const n of counts) {
    if (Date.now() > deadline) {
      stoppedBecause = `time budget (--minutes ${f.minutes}) spent before ${n} agents`;
      break;
    }
    const enrol = await enrolTo(n);
    if (enrolled.length < n) {
      stoppedBecause = `enrolment reached ${enrolled.length} of ${n} agents (${enrol.errors} failures${Date.now() > deadline ? ", time budget spent" : ""})`;
      say(stoppedBecause);
      break;
    }
    for (const transport of transports) {
      if (Date.now() > deadline) {
        stoppedBecause = `time budget (--minutes ${f.minutes}) spent before ${n} agents over ${transport}`;
        break outer;
      }
      steps.push(await measure(n, transport, enrol));
      writePartial();
    }
  }
  if (!stoppedBecause && counts.at(-1)! < 10_000) stoppedBecause = `asked for at most ${counts.at(-1)} agents`;

  const out = {
    generatedAt: new Date().toISOString(),
    durationSec: Math.round((Date.now() - t0) / 1000),
    machine,
    openFilesLimit: fdLimit,
    mode: instanceCount === 1 ? "one instance" : `${instanceCount} instances on one PostgreSQL: agents round-robin, each run's browser on the next instance`,
    ports,
    build: cluster.build,
    statementSource: statements.source,
    agentIdleHeartbeatSec: idleHeartbeatMs ? idleHeartbeatMs / 1000 : null,
    claimWaitSec: { http: CLAIM_WAIT_SEC, socket: SOCKET_CLAIM_WAIT_SEC },
    firstPollsSpreadSec: spreadMs / 1000,
    targets: TARGET,
    stoppedBecause,
    steps,
    // When anything failed, the instances' last lines say why.
    serverLogTail: steps.some((r) => r.errors > 0 || (r.storm?.errors ?? 0) > 0) ? instances.map((i) => i.logTail().split("\n").slice(-20)) : [],
  };
  writeJson(RESULTS, out);
  console.log(renderFleetTable(steps, transports, instanceCount));
  console.log(`\nwritten to ${path.relative(root, RESULTS)}${stoppedBecause ? `; stopped: ${stoppedBecause}` : ""}`);
  return 0;

  /** Enrols hosts up to n: the first --enrol-api over the API as an operator would script it, the rest straight into hosts. */
  async function enrolTo(n: number): Promise<{ overApi: number; perSec: number | null; errors: number }> {
    const need = n - enrolled.length;
    const from = enrolled.length;
    const enrolStart = nowMs();
    let errors = 0;
    say(`enrolling ${need} more hosts (to ${n})…`);
    await mapLimit(
      Array.from({ length: Math.max(0, Math.min(need, Number(f["enrol-api"]) - enrolled.length)) }, (_, i) => enrolled.length + i),
      8,
      async (i) => {
        if (Date.now() > deadline) return;
        try {
          const host = await user.createHost(`fleet-${i}`);
          const res = await fetch(`${main0.url}/api/agent/register`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ registrationToken: host.registrationToken, profile: {}, capabilities: FAKE_CAPABILITIES }),
          });
          const body = (await res.json()) as { hostId: string; credential: string };
          if (res.status !== 201) throw new Error(`register: HTTP ${res.status} ${JSON.stringify(body).slice(0, 200)}`);
          enrolled.push({ hostId: body.hostId, credential: body.credential });
        } catch (err) {
          if (errors++ < 3) say(`enrolment failed: ${err instanceof Error ? err.message : String(err)}`);
        }
      },
    );
    const enrolSec = (nowMs() - enrolStart) / 1000;
    const overApi = enrolled.length - from;
    // Past --enrol-api hosts, the rest are written straight into hosts (as a registration leaves
    // them): at the rate a loaded 2-core machine enrols, 10,000 would take the whole budget, and
    // enrolment is not what the idle and load phases measure. The API rate is reported.
    if (enrolled.length < n && Date.now() < deadline) enrolled.push(...(await enrolDirect(cluster.databaseUrl, n - enrolled.length, enrolled.length)));
    return { overApi, perSec: overApi > 0 ? round(overApi / enrolSec, 1) : null, errors };
  }

  /** One fleet of n agents over one transport: idle, load, and (socket) a reconnect storm; then it stops. */
  async function measure(n: number, transport: Transport, enrol: { overApi: number; perSec: number | null }): Promise<Step> {
    const counters: FleetCounters = { requests: {}, errors: {}, wrongClaims: 0, socket: newSocketCounters() };
    // Round-robin over the instances, as a load balancer would spread them. Runs are queued on the
    // agents of this process; past --agents-per-process the rest idle in child processes.
    const spread = enrolled.slice(0, n).map((e, i) => ({ ...e, base: instances[i % instances.length]!.url }));
    fleet = spread.slice(0, perProcess).map((e) => new FleetAgent(e.hostId, e.credential, e.base, counters, idleHeartbeatMs, transport));
    ballast = spread.length > perProcess ? Ballast.start(spread.slice(perProcess), perProcess, { transport, idleHeartbeatMs, spreadMs }) : null;
    const all = async () => {
      const b = await ballast?.status();
      return {
        connected: fleet.filter((a) => a.connected).length + (b?.connected ?? 0),
        errors: errorCount(counters) + sum(Object.values(b?.errors ?? {})),
        reconnects: counters.socket.reconnects + (b?.reconnects ?? 0),
        refused: counters.socket.refused + (b?.refused ?? 0),
        errorsByKind: { ...counters.errors, ...counters.socket.errors, ...Object.fromEntries(Object.entries(b?.errors ?? {}).map(([k, v]) => [`${k} (child)`, v])) },
      };
    };
    for (let i = 0; i < fleet.length; i++) {
      fleet[i]!.start(firstPollDelay());
      // Even unscattered (--spread-sec 0), a second per thousand: agents never start in the same millisecond.
      if (i % 100 === 99) await pause(100);
    }
    const browserBase = (a: FleetAgent) => {
      const k = instances.findIndex((inst) => inst.url === a.base);
      return instances[(k + 1) % instances.length]!.url;
    };
    // Settle until every agent has made its first poll (opened its socket), and 10 s more.
    const settleMs = spreadMs + 10_000;
    say(`${n} agents over ${transport} on ${instances.length} instance(s); settling ${Math.round(settleMs / 1000)} s`);
    await pause(settleMs);
    const { connected } = await all();

    // Idle: long-polls (HTTP) or open sockets and their pings (socket), plus idle heartbeats if the agent sends them.
    const load0 = loadAvg();
    const idleMachine = machineCpuMeter();
    const cpu = groupCpuMeter(groups);
    const stmts = await statements.start();
    const rssMax = instances.map(() => 0);
    for (let s = 0; s < idleSec; s++) {
      await pause(1000);
      instances.forEach((inst, i) => (rssMax[i] = Math.max(rssMax[i]!, rssMiB(groups()[`app ${i}`]!))));
    }
    const idleCpu = cpu();
    const idleMachinePct = idleMachine();
    const idleStatements = await stmts();
    say(
      `idle ${n} ${transport}: app ${appPct(idleCpu).toFixed(1)} %, postgres ${idleCpu.postgres!.toFixed(1)} % of a core, ` +
        `RSS ${rssMax.map((r) => r.toFixed(0)).join(" + ")} MiB, ${idleStatements.totalPerSec.toFixed(1)} statements/s`,
    );

    const errorsBefore = (await all()).errors;
    const loadMachine = machineCpuMeter();
    const loadCpu = groupCpuMeter(groups);
    const loadStmts = await statements.start();
    const load = await runLoad({ fleet, user, seconds: loadSec, ratePerSec: rate, lines, browserBase, deadline, say });
    const loadCpuPct = loadCpu();
    const loadMachinePct = loadMachine();
    const loadStatements = await loadStmts();
    const loadErrors = (await all()).errors - errorsBefore + load.queueErrors + Math.max(0, load.linesLost);
    const pickupMs = brief(load.pickups);
    const liveMs = brief(load.live);
    say(`load ${n} ${transport}: ${load.queued} runs, pickup p50/p95/max ${pickupMs.p50}/${pickupMs.p95}/${pickupMs.max} ms, live p50/p95 ${liveMs.p50}/${liveMs.p95} ms, ${load.linesLost} lines lost, ${loadErrors} errors`);

    const storm = transport === "socket" && !f["skip-storm"] ? await reconnectStorm(browserBase) : null;
    const end = await all();
    fleet.forEach((a) => a.stop());
    fleet = [];
    await ballast?.stop();
    ballast = null;
    // Let the instances notice the agents are gone before the next fleet starts.
    await pause(5000);
    return {
      agents: n,
      transport,
      agentProcesses: 1 + Math.ceil(Math.max(0, n - perProcess) / perProcess),
      enrolledOverApi: enrol.overApi,
      enrolPerSec: enrol.perSec,
      connectedAfterSettle: connected,
      loadAverage: { idleStart: load0, end: loadAvg() },
      idle: {
        seconds: idleSec,
        appPctCore: round(appPct(idleCpu), 1),
        appPctCoreByInstance: perInstance(idleCpu),
        pgPctCore: round(idleCpu.postgres!, 1),
        otherPctCore: round(idleCpu.other!, 1),
        machineBusyPct: round(idleMachinePct, 0),
        rssMiB: round(sum(rssMax), 0),
        rssMiBByInstance: rssMax.map((r) => round(r, 0)),
        statementsPerSec: round(idleStatements.totalPerSec, 1),
        topStatements: idleStatements.top.map((s) => ({ ...s, perSec: round(s.perSec, 2) })),
      },
      load: {
        runsQueued: load.queued,
        ratePerSec: rate,
        linesPerRun: lines,
        appPctCore: round(appPct(loadCpuPct), 1),
        appPctCoreByInstance: perInstance(loadCpuPct),
        pgPctCore: round(loadCpuPct.postgres!, 1),
        otherPctCore: round(loadCpuPct.other!, 1),
        machineBusyPct: round(loadMachinePct, 0),
        benchLoopDelayMs: load.benchLoopDelayMs,
        statementsPerSec: round(loadStatements.totalPerSec, 1),
        topStatements: loadStatements.top.map((s) => ({ ...s, perSec: round(s.perSec, 2) })),
      },
      pickupMs,
      queueRequestMs: brief(load.queueMs),
      liveMs,
      linesLost: load.linesLost,
      wrongClaims: counters.wrongClaims,
      errors: loadErrors + counters.wrongClaims,
      // This fleet's errors over its whole life, by request and status (socket: connection errors too).
      errorsByKind: end.errorsByKind,
      requests: counters.requests,
      socketReconnects: transport === "socket" ? end.reconnects : null,
      storm,
    };

    /**
     * Restarts every instance under the idle, connected fleet (SIGTERM: each closes its sockets
     * with 1001, then a new process starts on the same port) and measures: from the stop to every
     * agent connected again, the pickup of runs queued right after, and the errors meanwhile.
     */
    async function reconnectStorm(browserFor: (a: FleetAgent) => string): Promise<Storm> {
      await pause(5000);
      const before = await all();
      say(`storm ${n}: restarting ${instances.length} instance(s) under ${before.connected} connected agents`);
      const t = nowMs();
      await Promise.all(instances.map((i) => i.restart()));
      const upSec = (nowMs() - t) / 1000;
      const limit = t + Number(f["storm-sec"]) * 1000;
      let now = await all();
      while (nowMs() < limit && now.connected < n) {
        await pause(ballast ? 500 : 100);
        now = await all();
      }
      const settledSec = (nowMs() - t) / 1000;
      const notConnected = n - now.connected;
      const storm = await runLoad({ fleet, user, seconds: Math.min(loadSec, 10), ratePerSec: rate, lines, browserBase: browserFor, deadline: Infinity, say });
      const after = await all();
      const errors = after.errors - before.errors + storm.queueErrors + Math.max(0, storm.linesLost) + notConnected;
      const result: Storm = {
        instancesBackSec: round(upSec, 1),
        settledSec: notConnected ? null : round(settledSec, 1),
        notConnected,
        reconnects: after.reconnects - before.reconnects,
        refusedAttempts: after.refused - before.refused,
        runsQueued: storm.queued,
        pickupMs: brief(storm.pickups),
        liveMs: brief(storm.live),
        linesLost: storm.linesLost,
        errors,
      };
      say(
        `storm ${n}: instances back in ${result.instancesBackSec} s, every agent connected after ${result.settledSec ?? `— (${notConnected} not)`} s, ` +
          `${result.reconnects} reconnects (${result.refusedAttempts} refused attempts), pickup p95 ${result.pickupMs.p95} ms, ${errors} errors`,
      );
      return result;
    }
  }
}

interface Storm {
  /** From SIGTERM to every instance answering /api/health again. */
  instancesBackSec: number;
  /** From SIGTERM to every agent's socket open again; null if some never reconnected within --storm-sec. */
  settledSec: number | null;
  notConnected: number;
  reconnects: number;
  /** Connection attempts refused while the instances were down (expected, not errors). */
  refusedAttempts: number;
  runsQueued: number;
  pickupMs: ReturnType<typeof brief>;
  liveMs: ReturnType<typeof brief>;
  linesLost: number;
  errors: number;
}

interface Step {
  agents: number;
  transport: Transport;
  agentProcesses: number;
  enrolledOverApi: number;
  enrolPerSec: number | null;
  connectedAfterSettle: number;
  loadAverage: { idleStart: number[]; end: number[] };
  idle: { appPctCore: number; appPctCoreByInstance: number[]; pgPctCore: number; rssMiB: number; rssMiBByInstance: number[]; statementsPerSec: number } & Record<string, unknown>;
  load: Record<string, unknown>;
  pickupMs: ReturnType<typeof brief>;
  queueRequestMs: ReturnType<typeof brief>;
  liveMs: ReturnType<typeof brief>;
  linesLost: number;
  wrongClaims: number;
  errors: number;
  errorsByKind: Record<string, number>;
  requests: Record<string, number>;
  socketReconnects: number | null;
  storm: Storm | null;
}

/** Every size's figures, the transports side by side, with the issue's targets. */
function renderFleetTable(steps: Step[], transports: Transport[], instanceCount: number): string {
  const rows: CompareRow[] = [];
  for (const n of [...new Set(steps.map((s) => s.agents))]) {
    const at = (t: Transport) => steps.find((s) => s.agents === n && s.transport === t);
    const row = (figure: string, target: string, cell: (s: Step) => { value: string; pass: boolean | null } | undefined) =>
      rows.push({ figure: `${n} agents: ${figure}`, target, cells: Object.fromEntries(transports.map((t) => [t, at(t) ? cell(at(t)!) : undefined])) });
    const cpu = (s: Step) => s.idle.appPctCore + s.idle.pgPctCore;
    row("idle app + PostgreSQL CPU, % of a core", `≤ ${TARGET.idlePctCore} %`, (s) => ({
      value: `${cpu(s).toFixed(1)} (${instanceCount > 1 ? s.idle.appPctCoreByInstance.join(" + ") : s.idle.appPctCore} + ${s.idle.pgPctCore})`,
      pass: cpu(s) <= TARGET.idlePctCore,
    }));
    row(`app RSS, MiB${instanceCount > 1 ? " (per instance)" : ""}`, `< ${TARGET.rssMiB} MiB each`, (s) => ({
      value: instanceCount > 1 ? `${s.idle.rssMiB} (${s.idle.rssMiBByInstance.join(" + ")})` : `${s.idle.rssMiB}`,
      pass: Math.max(...s.idle.rssMiBByInstance) < TARGET.rssMiB,
    }));
    row("statements/s idle", "", (s) => ({ value: `${s.idle.statementsPerSec}`, pass: null }));
    row("pickup p50 / p95 / max, ms", `p95 ≤ ${TARGET.pickupP95Ms} ms`, (s) => ({
      value: `${s.pickupMs.p50} / ${s.pickupMs.p95} / ${s.pickupMs.max} (${s.pickupMs.n})`,
      pass: s.pickupMs.p95 <= TARGET.pickupP95Ms,
    }));
    row(`output → browser p50 / p95, ms${instanceCount > 1 ? " (browser on another instance)" : ""}`, "", (s) => ({ value: `${s.liveMs.p50} / ${s.liveMs.p95}`, pass: null }));
    row("errors (requests, lost lines, wrong claims)", "0", (s) => ({ value: `${s.errors}`, pass: s.errors === 0 }));
    if (steps.some((s) => s.agents === n && s.storm)) {
      row("reconnect storm: all connected again after, s", `≤ ${TARGET.stormSettleSec} s`, (s) =>
        s.storm ? { value: s.storm.settledSec === null ? `— (${s.storm.notConnected} not)` : `${s.storm.settledSec} (instances back ${s.storm.instancesBackSec})`, pass: s.storm.settledSec !== null && s.storm.settledSec <= TARGET.stormSettleSec } : undefined,
      );
      row("reconnect storm: pickup p95 of runs queued right after, ms", "", (s) => (s.storm ? { value: `${s.storm.pickupMs.p95} (${s.storm.pickupMs.n})`, pass: null } : undefined));
      row("reconnect storm: errors", "0", (s) => (s.storm ? { value: `${s.storm.errors} (${s.storm.reconnects} reconnects)`, pass: s.storm.errors === 0 } : undefined));
    }
  }
  return renderCompareTable(`fleet, ${instanceCount} instance${instanceCount > 1 ? "s" : ""} on one PostgreSQL`, transports, rows);
}

/** The soft open-files limit of this process (the instances inherit it). */
function openFilesLimit(): number {
  const m = /Max open files\s+(\d+)/.exec(fs.readFileSync("/proc/self/limits", "utf8"));
  return m ? Number(m[1]) : Number.POSITIVE_INFINITY;
}

/** Hosts as a registration leaves them (credential hash, capabilities, seen now), owned by the bench's operator. */
async function enrolDirect(databaseUrl: string, count: number, from: number): Promise<{ hostId: string; credential: string }[]> {
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const owner = (await client.query<{ user_id: string }>("SELECT user_id::text FROM api_tokens ORDER BY created_at DESC LIMIT 1")).rows[0]?.user_id;
    const out: { hostId: string; credential: string }[] = [];
    for (let i = 0; i < count; i += 1000) {
      const batch = Array.from({ length: Math.min(1000, count - i) }, (_, k) => ({ name: `fleet-${from + i + k}`, credential: generateSecret("pba") }));
      const { rows } = await client.query<{ id: string; name: string }>(
        `INSERT INTO hosts (id, name, created_by_id, agent_credential_hash, agent_registered_at, last_seen_at, capabilities, profile, created_at, updated_at)
         SELECT gen_random_uuid(), t.name, $1::uuid, t.hash, now(), now(), $4::jsonb, '{}'::jsonb, now(), now()
         FROM unnest($2::text[], $3::text[]) AS t(name, hash)
         RETURNING id::text, name`,
        [owner, batch.map((b) => b.name), batch.map((b) => hashSecret(b.credential)), JSON.stringify(FAKE_CAPABILITIES)],
      );
      const byName = new Map(batch.map((b) => [b.name, b.credential]));
      for (const r of rows) out.push({ hostId: r.id, credential: byName.get(r.name)! });
    }
    return out;
  } finally {
    await client.end();
  }
}

main()
  .then(async (code) => {
    await cleanupAll();
    process.exit(code);
  })
  .catch(async (err: unknown) => {
    console.error(`[fleet] failed: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
    await cleanupAll();
    process.exit(1);
  });
