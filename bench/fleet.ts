// Fleet benchmark (issue "Performance at fleet scale"): N simulated agents over real HTTP on
// loopback against one production instance (`next start` on a fresh embedded PostgreSQL). For
// each N (cumulative: 100, then 900 more, …) it measures the idle fleet (long-polls only) —
// CPU of the app and of PostgreSQL from /proc/<pid>/stat, the app's RSS, statements per second
// by statement — then queues runs at a steady rate and measures pickup (queue → claim answered)
// and live output (line uploaded → line in a browser's SSE stream). Bounded in agents and time;
// stops by itself and says why. Writes bench/results/fleet.json.
//   npx tsx bench/fleet.ts [--agents 100,1000,3000] [--two-instances] [--stale-build | --build]
//                          [--idle-sec 100] [--load-sec 30] [--rate 3] [--lines 10] [--minutes 20]
//                          [--idle-heartbeat-sec S] [--spread-sec 50] [--port P]
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { parseArgs } from "node:util";
import pg from "pg";
import { generateSecret, hashSecret } from "../lib/auth/secret-token";
import { IDLE_HEARTBEAT_MS } from "../probes/agent/heartbeat";
import { CLAIM_WAIT_SEC } from "../probes/protocol/schemas";
import { createOperatorToken, FAKE_CAPABILITIES, mapLimit, SAR_PARAMS, UserApi } from "./lib/api";
import { cleanupAll, cleanupOnSignals, onCleanup } from "./lib/cleanup";
import { FleetAgent, type FleetCounters } from "./lib/fleet-agent";
import { StatementCounter } from "./lib/pg-statements";
import { commName, descendants, groupCpuMeter, machineCpuMeter } from "./lib/proc";
import { describeMachine, writeJson } from "./lib/report";
import { root, startMainServer, startSecondInstance, type RunningServer } from "./lib/server";
import { openRunEvents, type SseClient } from "./lib/sse";
import { nowMs, round, summarize } from "./lib/stats";

const DATA_DIR = path.join(root, ".data", "bench-fleet");
const resultsFile = (two: boolean) => path.join(root, "bench", "results", two ? "fleet-two-instances.json" : "fleet.json");
const say = (m: string) => console.error(`[fleet] ${m}`);
const pause = (ms: number) => new Promise((r) => setTimeout(r, ms));
const loadAvg = () => os.loadavg().map((x) => round(x, 2));
const LINE = /^fleet (\S+) (\d+) (\d+\.\d+)/;

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

async function main(): Promise<number> {
  const { values: f } = parseArgs({
    options: {
      agents: { type: "string", default: "100,1000,3000" },
      "two-instances": { type: "boolean" },
      build: { type: "boolean" },
      "stale-build": { type: "boolean" },
      // Two claim waits at least: an idle agent polls once per 40–50 s, so a shorter window can
      // fall between two bursts of a fleet that started together and see almost nothing.
      "idle-sec": { type: "string", default: "100" },
      "load-sec": { type: "string", default: "30" },
      rate: { type: "string", default: "3" },
      lines: { type: "string", default: "10" },
      minutes: { type: "string", default: "20" },
      "idle-heartbeat-sec": { type: "string" },
      "enrol-api": { type: "string", default: "200" },
      // Over how many seconds the agents' first polls are scattered: one claim wait models a fleet
      // that has been up a while (steady state); 0 models every agent reconnecting at once.
      "spread-sec": { type: "string", default: String(CLAIM_WAIT_SEC) },
      port: { type: "string" },
    },
  });
  const counts = f.agents.split(",").map(Number);
  if (counts.some((n) => !Number.isInteger(n) || n < 1 || n > 10_000)) throw new Error("--agents takes counts from 1 to 10000, such as 100,1000");
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
  const RESULTS = resultsFile(!!f["two-instances"]);

  // The fleet needs sockets: two per agent on loopback (ours and the server's), plus PostgreSQL's.
  process.env.PROBEBOOK_PG_PRELOAD = "pg_stat_statements";
  // One operator enrols the whole fleet: the per-user caps (200 hosts, 10 unused tokens) are
  // raised as an administrator of a fleet would (README.md, "Enrolling a fleet").
  process.env.PROBEBOOK_MAX_HOSTS_PER_USER ??= "20000";
  process.env.PROBEBOOK_MAX_PENDING_REGISTRATIONS ??= "64";
  onCleanup("bench data dir", () => fs.rmSync(DATA_DIR, { recursive: true, force: true }));
  const port = Number(f.port ?? process.env.E2E_PORT ?? (await freePort()));
  say(`starting the server on port ${port}`);
  const server = await startMainServer({ port, dataDir: DATA_DIR, ifStale: f.build ? "build" : f["stale-build"] ? "serve" : "refuse" });
  let second: RunningServer | null = null;
  if (f["two-instances"]) {
    const port2 = await freePort();
    say(`starting the browsers' instance on port ${port2}`);
    second = await startSecondInstance({ port: port2, dataDir: DATA_DIR, databaseUrl: server.databaseUrl, sessionSecret: server.sessionSecret });
  }
  const browserBase = second?.url ?? server.url;
  const groups = () => {
    const tree = descendants(server.pid).map((pid) => ({ pid, comm: commName(pid) }));
    const app = tree.filter((p) => p.comm.startsWith("next-server")).map((p) => p.pid);
    return {
      app: second ? [...app, second.pid, ...descendants(second.pid).filter((p) => commName(p).startsWith("next-server"))] : app,
      postgres: tree.filter((p) => p.comm === "postgres").map((p) => p.pid),
    };
  };
  const statements = await StatementCounter.open(server.databaseUrl);
  onCleanup("statement counter", () => statements.close());
  const user = new UserApi(server.url, await createOperatorToken(server.databaseUrl));

  const counters: FleetCounters = { requests: {}, errors: {}, wrongClaims: 0 };
  const fleet: FleetAgent[] = [];
  onCleanup("simulated agents", () => fleet.forEach((a) => a.stop()));
  const runs: unknown[] = [];
  let stoppedBecause: string | null = null;

  for (const n of counts) {
    if (Date.now() > deadline) {
      stoppedBecause = `time budget (--minutes ${f.minutes}) spent before ${n} agents`;
      break;
    }
    // Enrolment over the API as an operator would script it: create the host, register with its token.
    const need = n - fleet.length;
    const enrolStart = nowMs();
    let enrolErrors = 0;
    say(`enrolling ${need} more agents (to ${n})…`);
    await mapLimit(
      Array.from({ length: Math.max(0, Math.min(need, Number(f["enrol-api"]) - fleet.length)) }, (_, i) => fleet.length + i),
      8,
      async (i) => {
        if (Date.now() > deadline) return;
        try {
          const host = await user.createHost(`fleet-${i}`);
          const res = await fetch(`${server.url}/api/agent/register`, {
            method: "POST",
            headers: { "content-type": "application/json" },
            body: JSON.stringify({ registrationToken: host.registrationToken, profile: {}, capabilities: FAKE_CAPABILITIES }),
          });
          const body = (await res.json()) as { hostId: string; credential: string };
          if (res.status !== 201) throw new Error(`register: HTTP ${res.status} ${JSON.stringify(body).slice(0, 200)}`);
          const agent = new FleetAgent(body.hostId, body.credential, server.url, counters, idleHeartbeatMs);
          fleet.push(agent);
          agent.start(firstPollDelay());
        } catch (err) {
          if (enrolErrors++ < 3) say(`enrolment failed: ${err instanceof Error ? err.message : String(err)}`);
        }
      },
    );
    const enrolSec = (nowMs() - enrolStart) / 1000;
    const enrolledOverApi = fleet.length - (n - need);
    // Past --enrol-api agents, the rest are written straight into hosts (as a registration leaves
    // them): at the rate a loaded 2-core machine enrols, 10,000 would take the whole budget, and
    // enrolment is not what the idle and load phases measure. The API rate is reported.
    if (fleet.length < n && Date.now() < deadline) {
      const bulk = await enrolDirect(server.databaseUrl, n - fleet.length, fleet.length);
      for (const { hostId, credential } of bulk) {
        const agent = new FleetAgent(hostId, credential, server.url, counters, idleHeartbeatMs);
        fleet.push(agent);
        agent.start(firstPollDelay());
        // Even unscattered (--spread-sec 0), a second per thousand: agents never start in the same millisecond.
        if (fleet.length % 100 === 0) await pause(100);
      }
    }
    if (fleet.length < n) {
      stoppedBecause = `enrolment reached ${fleet.length} of ${n} agents (${enrolErrors} failures${Date.now() > deadline ? ", time budget spent" : ""})`;
      say(stoppedBecause);
      break;
    }
    const enrolPerSec = enrolledOverApi > 0 ? enrolledOverApi / enrolSec : null;
    // Settle until every agent has made its first poll, and 10 s more.
    const settleMs = spreadMs + 10_000;
    say(`${n} agents (${enrolledOverApi} over the API${enrolPerSec ? `, ${enrolPerSec.toFixed(1)} enrolments/s` : ""}); settling ${Math.round(settleMs / 1000)} s`);
    await pause(settleMs);

    // Idle: long-polls only (plus idle heartbeats if the agent sends them).
    const errorsBefore = Object.values(counters.errors).reduce((a, b) => a + b, 0);
    const kindsBefore = { ...counters.errors };
    const load0 = loadAvg();
    const idleMachine = machineCpuMeter();
    const cpu = groupCpuMeter(groups);
    const stmts = await statements.start();
    let rssMax = 0;
    for (let s = 0; s < idleSec; s++) {
      await pause(1000);
      rssMax = Math.max(rssMax, rssMiB(groups().app));
    }
    const idleCpu = cpu();
    const idleMachinePct = idleMachine();
    const idleStatements = await stmts();
    say(`idle ${n}: app ${idleCpu.app!.toFixed(1)} %, postgres ${idleCpu.postgres!.toFixed(1)} % of a core, RSS ${rssMax.toFixed(0)} MiB, ${idleStatements.totalPerSec.toFixed(1)} statements/s`);

    // Load: runs queued at a steady rate on idle agents, each watched by one browser.
    const pickups: number[] = [];
    /** How long POST /api/runs took: the part of a pickup spent before the run was queued. */
    const queueMs: number[] = [];
    const live: number[] = [];
    const seen = new Set<string>();
    const clients: SseClient[] = [];
    const pending: Promise<void>[] = [];
    let queued = 0;
    let queueErrors = 0;
    // The bench's own event-loop delay: on a busy machine part of a latency is the bench's.
    const loop = monitorEventLoopDelay({ resolution: 10 });
    loop.enable();
    const loadMachine = machineCpuMeter();
    const loadCpu = groupCpuMeter(groups);
    const loadStmts = await statements.start();
    const loadStart = nowMs();
    for (let k = 0; k < loadSec * rate && Date.now() < deadline; k++) {
      const due = loadStart + (k * 1000) / rate;
      const wait = due - nowMs();
      if (wait > 0) await pause(wait);
      const idle = fleet.filter((a) => !a.busy);
      const agent = idle[Math.floor(Math.random() * idle.length)];
      if (!agent) continue;
      agent.busy = true;
      pending.push(
        (async () => {
          const queuedAt = nowMs();
          let setRunId: (id: string) => void = () => undefined;
          let failRunId: (err: unknown) => void = () => undefined;
          const runIdP = new Promise<string>((resolve, reject) => ((setRunId = resolve), (failRunId = reject)));
          runIdP.catch(() => undefined);
          let setWatched: () => void = () => undefined;
          const watched = new Promise<void>((resolve) => (setWatched = resolve));
          const done = new Promise<void>((resolve) => {
            agent.expect({ runId: runIdP, queuedAt, watched, lines, onPickup: (ms) => pickups.push(ms), onDone: resolve });
            setTimeout(resolve, (lines + 60) * 1000).unref();
          });
          let runId: string;
          try {
            // Bounded: a starved server must not hold the phase open for ever.
            const res = await fetch(`${server.url}/api/runs`, {
              method: "POST",
              headers: { authorization: `Bearer ${user.token}`, "content-type": "application/json" },
              body: JSON.stringify({ hostId: agent.hostId, probe: "sar", params: SAR_PARAMS, repeats: 1 }),
              signal: AbortSignal.timeout(30_000),
            });
            const text = await res.text();
            queueMs.push(nowMs() - queuedAt);
            if (!res.ok) throw new Error(`POST /api/runs: HTTP ${res.status} ${text.slice(0, 200)}`);
            [runId] = (JSON.parse(text) as { ids: [string] }).ids;
          } catch (err) {
            failRunId(err);
            agent.cancelExpectation();
            if (queueErrors++ < 3) say(`queueing failed: ${err instanceof Error ? `${err.message}${err.cause ? ` (${String(err.cause)})` : ""}` : String(err)}`);
            return;
          }
          setRunId(runId);
          queued++;
          const client = openRunEvents(browserBase, user.token, runId, (ev, at) => {
            if (ev.event !== "chunk") return;
            for (const line of ev.chunk.data.split("\n")) {
              const m = LINE.exec(line);
              if (!m || seen.has(`${m[1]}:${m[2]}`)) continue;
              seen.add(`${m[1]}:${m[2]}`);
              live.push(at - Number(m[3]));
            }
          });
          clients.push(client);
          client.done.catch(() => undefined);
          client.ready.then(setWatched, setWatched);
          await done;
          await Promise.race([client.done.catch(() => undefined), pause(10_000)]);
          client.close();
        })(),
      );
    }
    await Promise.all(pending);
    const loadCpuPct = loadCpu();
    const loadMachinePct = loadMachine();
    loop.disable();
    const loadStatements = await loadStmts();
    const errors = Object.values(counters.errors).reduce((a, b) => a + b, 0) - errorsBefore + queueErrors;
    const lost = queued * lines - seen.size;
    const run = {
      agents: n,
      loadAverage: { idleStart: load0, end: loadAvg() },
      enrolledOverApi,
      enrolPerSec: enrolPerSec === null ? null : round(enrolPerSec, 1),
      idle: {
        seconds: idleSec,
        appPctCore: round(idleCpu.app!, 1),
        pgPctCore: round(idleCpu.postgres!, 1),
        otherPctCore: round(idleCpu.other!, 1),
        machineBusyPct: round(idleMachinePct, 0),
        rssMiB: round(rssMax, 0),
        statementsPerSec: round(idleStatements.totalPerSec, 1),
        topStatements: idleStatements.top.map((s) => ({ ...s, perSec: round(s.perSec, 2) })),
      },
      load: {
        runsQueued: queued,
        ratePerSec: rate,
        linesPerRun: lines,
        appPctCore: round(loadCpuPct.app!, 1),
        pgPctCore: round(loadCpuPct.postgres!, 1),
        otherPctCore: round(loadCpuPct.other!, 1),
        machineBusyPct: round(loadMachinePct, 0),
        benchLoopDelayMs: { p99: round(loop.percentile(99) / 1e6), max: round(loop.max / 1e6) },
        statementsPerSec: round(loadStatements.totalPerSec, 1),
        topStatements: loadStatements.top.map((s) => ({ ...s, perSec: round(s.perSec, 2) })),
      },
      pickupMs: (({ n: count, p50, p95, max }) => ({ n: count, p50: round(p50), p95: round(p95), max: round(max) }))(summarize(pickups)),
      queueRequestMs: (({ n: count, p50, p95, max }) => ({ n: count, p50: round(p50), p95: round(p95), max: round(max) }))(summarize(queueMs)),
      liveMs: (({ n: count, p50, p95, max }) => ({ n: count, p50: round(p50), p95: round(p95), max: round(max) }))(summarize(live)),
      linesLost: lost,
      wrongClaims: counters.wrongClaims,
      errors: errors + Math.max(0, lost) + counters.wrongClaims,
      // This step's errors (idle and load windows), by request and status.
      errorsByKind: Object.fromEntries(Object.entries(counters.errors).map(([k, v]) => [k, v - (kindsBefore[k] ?? 0)]).filter(([, v]) => (v as number) > 0)),
    };
    runs.push(run);
    // Written after every step, so a later step that breaks leaves the earlier figures.
    writeJson(RESULTS, { partial: true, generatedAt: new Date().toISOString(), machine, runs });
    say(
      `load ${n}: ${queued} runs, pickup p50/p95/max ${run.pickupMs.p50}/${run.pickupMs.p95}/${run.pickupMs.max} ms, ` +
        `live p50/p95 ${run.liveMs.p50}/${run.liveMs.p95} ms, ${lost} lines lost, ${errors} errors`,
    );
  }
  if (!stoppedBecause && counts.at(-1)! < 10_000) stoppedBecause = `asked for at most ${counts.at(-1)} agents`;

  const out = {
    generatedAt: new Date().toISOString(),
    durationSec: Math.round((Date.now() - t0) / 1000),
    machine,
    mode: second ? "two instances: agents → A, browsers → B" : "one instance",
    build: server.build,
    statementSource: statements.source,
    agentIdleHeartbeatSec: idleHeartbeatMs ? idleHeartbeatMs / 1000 : null,
    claimWaitSec: CLAIM_WAIT_SEC,
    firstPollsSpreadSec: spreadMs / 1000,
    stoppedBecause,
    requests: counters.requests,
    runs,
    // When anything failed, the server's last lines say why.
    serverLogTail: runs.some((r) => (r as { errors: number }).errors > 0) || stoppedBecause?.startsWith("enrolment") ? server.logTail().split("\n").slice(-30) : [],
  };
  writeJson(RESULTS, out);
  console.log(JSON.stringify(out, null, 2));
  console.log(`\nwritten to ${path.relative(root, RESULTS)}${stoppedBecause ? `; stopped: ${stoppedBecause}` : ""}`);
  return 0;
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
