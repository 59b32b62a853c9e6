// Benchmark for "Hosts, the agent and live runs": output-to-browser latency with 1 and 50 live
// runs and 500 quiet ones (and across two app instances), log ingest through the agent API
// against a raw INSERT, and the agent's CPU while it streams a real probe. The agent-side figures
// are measured for each transport in the same run — HTTP requests, and the agent socket (the
// same operations as frames on one WebSocket per agent) — and printed side by side. Writes
// bench/results/live-runs.json. Targets are reported PASS/MISS; only errors make the exit non-zero.
//   npx tsx bench/live-runs.ts [--build | --stale-build] [--runs 1,50] [--wide 500] [--transport http,socket]
//                              [--port 3310 (the second instance on port+1)] [--skip-two-instances] [--skip-bundle] [--out FILE]
import fs from "node:fs";
import path from "node:path";
import { parseArgs } from "node:util";
import { createOperatorToken, mapLimit, registerFakeAgent, UserApi, type FakeAgent } from "./lib/api";
import { socketFakeAgent, TRANSPORTS, type Transport } from "./lib/agent-socket-client";
import { bundleAgent, measureAgentCpu, SAR_STREAMING, type AgentCpuResult } from "./lib/agent-cpu";
import { cleanupAll, cleanupOnSignals, onCleanup } from "./lib/cleanup";
import { measureIngest, type IngestResult } from "./lib/ingest";
import { measureLatency, type LatencyResult } from "./lib/latency";
import { commName, descendants, machineCpuMeter } from "./lib/proc";
import { measurePtyHop } from "./lib/pty-hop";
import { describeMachine, ms, renderCompareTable, renderTable, writeJson, type CompareRow, type Row } from "./lib/report";
import { appProcesses, root, startMainServer, startSecondInstance, type RunningServer } from "./lib/server";
import { round, roundSummary, type Summary } from "./lib/stats";

const DEFAULT_PORT = 3310;
const DATA_DIR = path.join(root, ".data", "bench");
const DEFAULT_RESULTS = path.join(root, "bench", "results", "live-runs.json");

/** Targets from the issues ("Performance at fleet scale" for the latencies and the ingest ratio). */
const TARGET = { p95Ms: 50, ingestRatio: 0.6, agentCpuPct: 1 };

const LATENCY = { linesPerSecond: 10, seconds: 10 };
/** Concurrent live runs measured (--runs); the largest is also measured across two instances. */
const DEFAULT_RUNS = [1, 50];
/** Many quiet runs (--wide N, 0 skips): N concurrent live runs at one line a second each. */
const WIDE = { runs: 500, linesPerSecond: 1, seconds: 20, p95Ms: 100 };
const INGEST = { runs: 20, chunksPerRun: 2000, chunkBytes: 1024, batch: 64, concurrency: 4 };

/** A phase starts once the whole machine is less busy than this (% of all cores). */
const QUIET_BELOW_PCT = 20;
/** "other" (processes that are neither Probebook's nor the bench's) above this in a phase, % of a core, earns a warning. */
const OTHER_WARN_PCT = 25;

const say = (m: string) => console.error(`[bench] ${m}`);
const pause = (msSec: number) => new Promise((r) => setTimeout(r, msSec));
const message = (err: unknown) => (err instanceof Error ? err.message : String(err));
const triple = (s: Summary) => `${ms(s.p50)} / ${ms(s.p95)} / ${ms(s.max)} ms`;

interface Results {
  /** By "<case> <transport>": "50 http", "500-wide socket", "50-two-instances http". */
  latency: Record<string, LatencyResult>;
  ptyHop?: Awaited<ReturnType<typeof measurePtyHop>>;
  ingest: Partial<Record<Transport, IngestResult>>;
  agentCpu: AgentCpuResult[];
  errors: string[];
  warnings: string[];
}

async function main(): Promise<number> {
  const { values: flags } = parseArgs({
    options: {
      build: { type: "boolean" },
      "stale-build": { type: "boolean" },
      runs: { type: "string" },
      wide: { type: "string" },
      "skip-two-instances": { type: "boolean" },
      "skip-bundle": { type: "boolean" },
      transport: { type: "string", default: TRANSPORTS.join(",") },
      port: { type: "string" },
      // Where the JSON goes (a smoke run should not replace the committed figures).
      out: { type: "string" },
    },
  });
  const RESULTS = flags.out ? path.resolve(flags.out) : DEFAULT_RESULTS;
  const transports = flags.transport.split(",").map((t) => t.trim()) as Transport[];
  if (!transports.length || transports.some((t) => !(TRANSPORTS as readonly string[]).includes(t))) throw new Error(`--transport takes ${TRANSPORTS.join(", ")} or both, separated by a comma`);
  const PORT = Number(flags.port ?? DEFAULT_PORT);
  const SECOND_PORT = PORT + 1;
  if (!Number.isInteger(PORT) || PORT < 1024 || PORT > 65534) throw new Error("--port takes a port from 1024 to 65534");
  const concurrent = flags.runs ? flags.runs.split(",").map(Number) : DEFAULT_RUNS;
  if (concurrent.some((n) => !Number.isInteger(n) || n < 1 || n > 200)) throw new Error(`--runs takes counts from 1 to 200, such as 1,10,50`);
  const wide = flags.wide === undefined ? WIDE.runs : Number(flags.wide);
  if (!Number.isInteger(wide) || wide < 0 || wide > 2000) throw new Error("--wide takes a count from 0 (skip) to 2000");
  if (flags.build && flags["stale-build"]) throw new Error("--build and --stale-build exclude each other");
  cleanupOnSignals();
  const machine = describeMachine();
  const t0 = Date.now();
  // The machine may be shared (other servers, CI): what else was running is part of the result.
  const idle = machineCpuMeter();
  await pause(2000);
  const backgroundBusyPct = round(idle(), 1);
  if (backgroundBusyPct > 15) say(`warning: the machine was already ${backgroundBusyPct} % busy before the bench started; figures will suffer`);
  const res: Results = { latency: {}, ingest: {}, agentCpu: [], errors: [], warnings: [] };
  /**
   * Waits (up to 10 s) for a quiet machine: on a shared box another build or test run would be
   * measured along with Probebook. The wait also lets the previous phase's stragglers settle.
   */
  const quiet = async (name: string) => {
    let busy = 100;
    for (let waited = 0; waited < 10 && busy > QUIET_BELOW_PCT; waited++) {
      const meter = machineCpuMeter();
      await pause(1000);
      busy = meter();
    }
    if (busy > QUIET_BELOW_PCT) {
      say(`warning: the machine is still ${busy.toFixed(0)} % busy; measuring "${name}" anyway`);
      res.warnings.push(`machine ${busy.toFixed(0)} % busy before "${name}"`);
    }
  };
  /** One phase failing is reported and the others still run: each measures something else. */
  const phase = async (name: string, fn: () => Promise<void>) => {
    await quiet(name);
    say(`${name}…`);
    try {
      await fn();
    } catch (err) {
      say(`${name} failed: ${message(err)}`);
      res.errors.push(`${name}: ${message(err)}`);
    }
  };

  say(`starting the server on port ${PORT} (data dir ${path.relative(root, DATA_DIR)})`);
  // Registered first, so it runs last: after the server has stopped and dropped its database,
  // the data dir only holds a stale database-url; nothing in it is worth keeping.
  onCleanup("bench data dir", () => fs.rmSync(DATA_DIR, { recursive: true, force: true }));
  // One operator makes every bench host: raise the per-user caps as a fleet's administrator would.
  process.env.PROBEBOOK_MAX_HOSTS_PER_USER ??= "20000";
  process.env.PROBEBOOK_MAX_PENDING_REGISTRATIONS ??= "64";
  const server = await startMainServer({ port: PORT, dataDir: DATA_DIR, ifStale: flags.build ? "build" : flags["stale-build"] ? "serve" : "refuse" });
  if (server.build.stale) say(`note: the build was stale (${server.build.stale}); ${server.build.action}`);
  let secondPid: number | null = null;
  // Where the CPU goes in each phase: the app server(s), PostgreSQL, and the bench (agents + browsers).
  const cpuGroups = () => {
    const tree = descendants(server.pid).map((pid) => ({ pid, comm: commName(pid) }));
    const groups: Record<string, number[]> = {
      app: appProcesses(server.pid),
      postgres: tree.filter((p) => p.comm === "postgres").map((p) => p.pid),
    };
    if (secondPid !== null) groups["app B"] = [secondPid];
    return groups;
  };
  const user = new UserApi(server.url, await createOperatorToken(server.databaseUrl));
  const maxRuns = Math.max(...concurrent);
  const hostsNeeded = Math.max(maxRuns, wide);
  say(`registering ${hostsNeeded + INGEST.concurrency + 1} hosts over the API`);
  const register = (names: string[]) => mapLimit(names, 8, (name) => registerFakeAgent(user, server.url, name));
  const httpAgents: FakeAgent[] = await register(Array.from({ length: hostsNeeded }, (_, i) => `bench-${i}`));
  const httpIngestAgents = await register(Array.from({ length: INGEST.concurrency }, (_, i) => `bench-ingest-${i}`));
  const [rawHost] = await register(["bench-ingest-raw"]);
  // The same hosts over the agent socket: one WebSocket each, opened as a phase first uses it.
  const overSocket = (list: FakeAgent[]) => list.map((a) => socketFakeAgent(a, server.url));
  const byTransport = {
    http: { agents: httpAgents, ingest: httpIngestAgents },
    socket: transports.includes("socket") ? { agents: overSocket(httpAgents), ingest: overSocket(httpIngestAgents) } : null,
  };
  const agentsOf = (t: Transport) => byTransport[t]!.agents;

  await phase("pty hop (agent pty runner → onData)", async () => {
    res.ptyHop = await measurePtyHop();
  });
  for (const n of concurrent) {
    for (const t of transports) {
      await phase(`latency with ${n} live run(s) over ${t}`, async () => {
        res.latency[`${n} ${t}`] = await measureLatency({ user, agents: agentsOf(t).slice(0, n), sseBase: server.url, cpuGroups, ...LATENCY });
      });
    }
  }
  if (wide > 0) {
    for (const t of transports) {
      await phase(`latency with ${wide} live runs at ${WIDE.linesPerSecond} line/s over ${t}`, async () => {
        res.latency[`${wide}-wide ${t}`] = await measureLatency({ user, agents: agentsOf(t).slice(0, wide), sseBase: server.url, cpuGroups, linesPerSecond: WIDE.linesPerSecond, seconds: WIDE.seconds });
      });
    }
  }
  if (!flags["skip-two-instances"]) {
    // Agents post to instance A, browsers listen on B: B only learns of new output through
    // PostgreSQL NOTIFY (or its 2 s safety poll, which would put p50 near a second). The fewest
    // runs show the fan-out's own delay; the most show it under load.
    let second: RunningServer | null = null;
    for (const n of [...new Set([Math.min(...concurrent), maxRuns])]) {
      for (const t of transports) {
        await phase(`latency with ${n} live run(s) over ${t}, agents → :${PORT}, browsers → :${SECOND_PORT}`, async () => {
          if (!second) {
            second = await startSecondInstance({ port: SECOND_PORT, dataDir: DATA_DIR, databaseUrl: server.databaseUrl, sessionSecret: server.sessionSecret });
            secondPid = second.pid;
            await quiet("the second instance's start-up to settle");
          }
          res.latency[`${n}-two-instances ${t}`] = await measureLatency({ user, agents: agentsOf(t).slice(0, n), sseBase: second.url, cpuGroups, ...LATENCY });
        });
      }
    }
    // Stopped before the ingest and CPU phases, which must not share the machine with it.
    await (second as RunningServer | null)?.stop();
    secondPid = null;
  }
  for (const t of transports) {
    await phase(`log ingest: agent API over ${t} vs raw INSERT`, async () => {
      res.ingest[t] = await measureIngest({ user, agents: byTransport[t]!.ingest, rawHostId: rawHost!.hostId, databaseUrl: server.databaseUrl, cpuGroups, ...INGEST });
    });
  }
  await phase("agent CPU while streaming sar (tsx)", async () => {
    res.agentCpu.push(await measureAgentCpu({ user, serverUrl: server.url, variant: "tsx", scratchParent: DATA_DIR }));
  });
  if (!flags["skip-bundle"]) {
    await phase("agent CPU while streaming sar (bundled agent)", async () => {
      const bundle = await bundleAgent();
      res.agentCpu.push(await measureAgentCpu({ user, serverUrl: server.url, variant: "bundle", bundle, scratchParent: DATA_DIR }));
    });
  }

  // Work of other people's processes during a phase makes its figures pessimistic: say so.
  const contaminated = (what: string, cpu: Record<string, number>, others: string[]) => {
    if ((cpu.other ?? 0) > OTHER_WARN_PCT) res.warnings.push(`${what}: other processes used ${cpu.other!.toFixed(0)} % of a core (${others.join(", ") || "short-lived"}); its figures are pessimistic`);
  };
  for (const [key, v] of Object.entries(res.latency)) contaminated(`latency[${key}]`, v.cpuPctOfCore, v.otherProcesses);
  for (const [t, ingest] of Object.entries(res.ingest)) {
    contaminated(`ingest API over ${t}`, ingest.api.cpuPctOfCore, ingest.api.otherProcesses);
    contaminated(`ingest raw (beside ${t})`, ingest.raw.cpuPctOfCore, ingest.raw.otherProcesses);
  }
  const compared = comparedRows(res, transports);
  const rows = tableRows(res);
  const title =
    `Probebook live-runs bench — ${machine.vcpus} vCPU ${machine.cpuModel}, ${machine.memGiB} GiB, Node ${machine.node}, ` +
    `${new Date().toISOString()}, machine ${backgroundBusyPct} % busy before start, ` +
    `build ${server.build.buildId}${server.build.stale ? ` (stale: ${server.build.action})` : ""}`;
  console.log(`\n${renderCompareTable(title, transports, compared)}`);
  if (rows.length) console.log(`\n${renderTable("the agent itself (HTTP) and the pty", rows)}`);
  console.log(details(res));
  if (res.warnings.length) console.log(`\nwarnings:\n${res.warnings.map((e) => `  - ${e}`).join("\n")}`);
  if (res.errors.length) console.log(`\nerrors:\n${res.errors.map((e) => `  - ${e}`).join("\n")}`);
  writeJson(RESULTS, {
    generatedAt: new Date().toISOString(),
    durationSec: Math.round((Date.now() - t0) / 1000),
    machine: { ...machine, backgroundBusyPct },
    build: server.build,
    config: { transports, latency: { ...LATENCY, concurrent }, wide: { ...WIDE, runs: wide }, ingest: INGEST, agentRun: { probe: "sar", params: SAR_STREAMING }, targets: TARGET },
    figures: { byTransport: compared, other: rows },
    latency: Object.fromEntries(Object.entries(res.latency).map(([k, v]) => [k, roundLatency(v)])),
    ptyHop: res.ptyHop ? { ...res.ptyHop, latencyMs: roundSummary(res.ptyHop.latencyMs, 2) } : null,
    ingest: Object.fromEntries(Object.entries(res.ingest).map(([t, i]) => [t, { ...i, api: roundRate(i.api), raw: roundRate(i.raw), ratio: round(i.ratio, 3) }])),
    agentCpu: res.agentCpu.map((a) => ({
      ...a,
      cpuPctOfCore: round(a.cpuPctOfCore, 2),
      streamingCpuPctOfCore: round(a.streamingCpuPctOfCore, 2),
      streamingWindowSec: round(a.streamingWindowSec, 2),
      idleCpuPctOfCore: round(a.idleCpuPctOfCore, 2),
      windowSec: round(a.windowSec, 2),
      rssMiB: round(a.rssMiB),
    })),
    warnings: res.warnings,
    errors: res.errors,
  });
  console.log(`\nwritten to ${path.relative(root, RESULTS)} (${Math.round((Date.now() - t0) / 1000)} s)`);
  return res.errors.length ? 1 : 0;
}

const roundCpu = (c: Record<string, number>) => Object.fromEntries(Object.entries(c).map(([k, v]) => [k, round(v)]));

function roundLatency(v: LatencyResult) {
  return {
    ...v,
    latencyMs: roundSummary(v.latencyMs),
    uploadMs: roundSummary(v.uploadMs),
    benchLoopDelayMs: { p99: round(v.benchLoopDelayMs.p99), max: round(v.benchLoopDelayMs.max) },
    machineCpuPct: round(v.machineCpuPct),
    cpuPctOfCore: roundCpu(v.cpuPctOfCore),
  };
}

function roundRate(r: IngestResult["api"]) {
  return { ...r, seconds: round(r.seconds, 2), chunksPerSec: round(r.chunksPerSec, 0), mibPerSec: round(r.mibPerSec, 2), machineCpuPct: round(r.machineCpuPct), cpuPctOfCore: roundCpu(r.cpuPctOfCore) };
}

/** "app 86, postgres 61, bench 40, other 12 [tsc 10]" (% of one core each). */
const cpuSplit = (c: Record<string, number>, others: string[]) =>
  Object.entries(c)
    .map(([k, v]) => `${k} ${v.toFixed(0)}`)
    .join(", ") + (others.length ? ` [other: ${others.join(", ")}]` : "");

/** The figures that depend on how the agent talks to the server, one column per transport. */
function comparedRows(res: Results, transports: Transport[]): CompareRow[] {
  const rows: CompareRow[] = [];
  const cases = [...new Set(Object.keys(res.latency).map((k) => k.split(" ")[0]!))];
  for (const c of cases) {
    const two = c.endsWith("two-instances");
    const isWide = c.endsWith("-wide");
    const target = isWide ? WIDE.p95Ms : TARGET.p95Ms;
    const runs = Object.entries(res.latency).find(([k]) => k.startsWith(`${c} `))![1].runs;
    rows.push({
      figure: `output→browser latency p50/p95/max, ${runs} live run${runs === 1 ? "" : "s"}${isWide ? ` × ${WIDE.linesPerSecond} line/s` : ` × ${LATENCY.linesPerSecond} lines/s`}${two ? " (SSE on 2nd instance)" : ""}`,
      target: `p95 ≤ ${target} ms`,
      cells: Object.fromEntries(
        transports.map((t) => {
          const v = res.latency[`${c} ${t}`];
          return [t, v ? { value: `${triple(v.latencyMs)}${v.linesLost ? `, ${v.linesLost} lost` : ""}`, pass: v.latencyMs.p95 <= target && v.linesLost === 0 } : undefined];
        }),
      ),
    });
  }
  if (Object.keys(res.ingest).length) {
    const rate = (r: IngestResult["api"]) => ({ value: `${Math.round(r.chunksPerSec)} chunks/s, ${r.mibPerSec.toFixed(1)} MiB/s`, pass: null });
    const each = (f: (i: IngestResult) => { value: string; pass: boolean | null }) => Object.fromEntries(transports.map((t) => [t, res.ingest[t] ? f(res.ingest[t]) : undefined]));
    rows.push({ figure: "ingest through the agent API (chunks)", target: "", cells: each((i) => rate(i.api)) });
    rows.push({ figure: "ingest as raw batched INSERT (pg), same run", target: "", cells: each((i) => rate(i.raw)) });
    rows.push({ figure: "ingest API ÷ raw", target: `≥ ${TARGET.ingestRatio * 100} %`, cells: each((i) => ({ value: `${(i.ratio * 100).toFixed(0)} %`, pass: i.ratio >= TARGET.ingestRatio })) });
  }
  return rows;
}

/** The figures of the agent itself and of the pty, which do not depend on the transport. */
function tableRows(res: Results): Row[] {
  const rows: Row[] = [];
  if (res.ptyHop) rows.push({ figure: "pty hop alone p50/p95/max", value: triple(res.ptyHop.latencyMs), target: "", pass: null });
  for (const a of res.agentCpu) {
    const variant = a.variant === "tsx" ? "tsx, from source" : "bundled .cjs";
    rows.push({
      figure: `agent CPU, sar run RUNNING→end (${variant})`,
      value: `${a.cpuPctOfCore.toFixed(2)} % of a core`,
      target: `≤ ${TARGET.agentCpuPct} %`,
      pass: a.cpuPctOfCore <= TARGET.agentCpuPct,
    });
    rows.push({ figure: `agent CPU, first→last chunk only (${variant})`, value: `${a.streamingCpuPctOfCore.toFixed(2)} % of a core`, target: "", pass: null });
  }
  return rows;
}

function details(res: Results): string {
  const out: string[] = ["", "details:"];
  for (const [key, v] of Object.entries(res.latency)) {
    out.push(
      `  latency[${key}]: ${v.linesReceived}/${v.linesSent} lines received (${v.linesLost} lost), ${v.chunksUploaded} chunks; ` +
        `upload request p50/p95 ${ms(v.uploadMs.p50)}/${ms(v.uploadMs.p95)} ms; bench event-loop delay p99 ${ms(v.benchLoopDelayMs.p99)} ms; ` +
        `machine CPU ${v.machineCpuPct.toFixed(0)} % (% of a core: ${cpuSplit(v.cpuPctOfCore, v.otherProcesses)}); finishes ${JSON.stringify(v.finishOutcomes)}`,
    );
    for (const w of v.streamerWarnings) out.push(`    streamer: ${w}`);
  }
  if (res.ptyHop) out.push(`  pty hop: ${res.ptyHop.lines} lines, p99 ${ms(res.ptyHop.latencyMs.p99)} ms, printer exit ${res.ptyHop.exitCode}`);
  for (const [t, ingest] of Object.entries(res.ingest)) {
    const { api, raw, rowsStored } = ingest;
    out.push(
      `  ingest over ${t}: ${api.chunks} chunks each way in batches of ${INGEST.batch}, ${ingest.concurrency} in flight (one host each); rows stored ${rowsStored.api}/${rowsStored.raw}`,
      `    API ${api.seconds.toFixed(1)} s, machine CPU ${api.machineCpuPct.toFixed(0)} % (% of a core: ${cpuSplit(api.cpuPctOfCore, api.otherProcesses)})`,
      `    raw ${raw.seconds.toFixed(1)} s, machine CPU ${raw.machineCpuPct.toFixed(0)} % (% of a core: ${cpuSplit(raw.cpuPctOfCore, raw.otherProcesses)})`,
    );
  }
  for (const a of res.agentCpu) {
    out.push(
      `  agent ${a.variant}: ${a.cpuTicks} ticks (${a.userTicks} user, ${a.systemTicks} system) over ${a.windowSec.toFixed(1)} s ` +
        `(streaming window ${a.streamingWindowSec.toFixed(1)} s); idle ${a.idleCpuPctOfCore.toFixed(2)} % of a core; ` +
        `run ${a.runStatus}, ${a.chunksStreamed} chunks / ${a.bytesStreamed} chars streamed; RSS ${a.rssMiB.toFixed(0)} MiB`,
    );
  }
  return out.join("\n");
}

main()
  .catch((err: unknown) => {
    console.error(`[bench] failed: ${message(err)}`);
    return 1;
  })
  .then(async (code) => {
    say("cleaning up");
    await cleanupAll();
    process.exit(code);
  });
