// Output-to-browser latency: N claimed runs, each fed through the agent's real streaming layer
// (LogStreamer: write-ahead spool, Nagle-style ChunkBuffer, AgentApi uploads) with lines that
// carry their send time, while one SSE client per run records when each line arrives.
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { monitorEventLoopDelay } from "node:perf_hooks";
import { LogStreamer } from "../../probes/agent/log-streamer";
import { memoryLogger } from "../../probes/agent/logger";
import { RunSpool } from "../../probes/agent/spool";
import { mapLimit, SAR_PARAMS, type FakeAgent, type UserApi } from "./api";
import { onCleanup } from "./cleanup";
import { busiestOthersMeter, groupCpuMeter, machineCpuMeter, type PidGroups } from "./proc";
import { openRunEvents, type SseClient } from "./sse";
import { nowMs, summarize, type Summary } from "./stats";

export interface LatencyOptions {
  user: UserApi;
  agents: FakeAgent[];
  /** Where browsers connect; the agents post to the server their AgentApi points at. */
  sseBase: string;
  linesPerSecond: number;
  seconds: number;
  /** Processes whose CPU is split out (app server, PostgreSQL); the bench itself is always added. */
  cpuGroups: PidGroups;
}

export interface LatencyResult {
  runs: number;
  linesSent: number;
  linesReceived: number;
  linesLost: number;
  /** Line written by the agent → line parsed by the SSE client, ms. */
  latencyMs: Summary;
  /** Duration of each chunk upload request (part of the latency above), ms. */
  uploadMs: Summary;
  chunksUploaded: number;
  /** This process's event-loop delay during the window: how much of the latency is the bench's own. */
  benchLoopDelayMs: { p99: number; max: number };
  /** Busy share of all cores during the window, %. */
  machineCpuPct: number;
  /** CPU per process group during the window, % of one core. */
  cpuPctOfCore: Record<string, number>;
  /** The busiest processes that are not Probebook's or the bench's, "comm % of a core". */
  otherProcesses: string[];
  finishOutcomes: Record<string, number>;
  streamerWarnings: string[];
}

const LINE = /^bench (\d+) (\d+) (\d+\.\d+)/;
const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

export async function measureLatency(opts: LatencyOptions): Promise<LatencyResult> {
  const { user, agents } = opts;
  // One queued run per host, claimed at once by that host's agent, as the claim long poll would.
  const runIds = await mapLimit(agents, 8, async (agent) => {
    const [runId] = await user.queueRuns(agent.hostId, "sar", SAR_PARAMS);
    const job = await agent.api.claim(0);
    const claimed = job && "runId" in job ? job.runId : null;
    if (claimed !== runId) throw new Error(`host ${agent.hostId}: claimed ${claimed ?? "nothing"} instead of ${runId}`);
    return runId!;
  });

  const latencies: number[] = [];
  const seen = new Set<string>();
  const clients: SseClient[] = runIds.map((runId) =>
    openRunEvents(opts.sseBase, user.token, runId, (ev, at) => {
      if (ev.event !== "chunk") return;
      for (const line of ev.chunk.data.split("\n")) {
        const m = LINE.exec(line);
        if (!m) continue;
        latencies.push(at - Number(m[3]));
        seen.add(`${m[1]}:${m[2]}`);
      }
    }),
  );
  const closeClients = onCleanup("SSE clients", () => clients.forEach((c) => c.close()));
  await Promise.all(clients.map((c) => c.ready));

  const spoolRoot = fs.mkdtempSync(path.join(os.tmpdir(), "pb-bench-spool-"));
  const removeSpool = onCleanup("bench spool dir", () => fs.rmSync(spoolRoot, { recursive: true, force: true }));
  const log = memoryLogger();
  const uploads: number[] = [];
  const streamers = runIds.map((runId, i) => {
    const agent = agents[i]!;
    const spool = RunSpool.create(path.join(spoolRoot, "spool"), { runId, hostId: agent.hostId, probe: "sar", target: "/dev/shm", startedAt: new Date().toISOString() });
    return new LogStreamer(runId, spool, {
      upload: async (id, chunks, signal) => {
        const t0 = nowMs();
        const r = await agent.api.uploadChunks(id, chunks, signal);
        uploads.push(nowMs() - t0);
        return r;
      },
      finish: (id, body, signal) => agent.api.finish(id, body, signal),
      log,
      rejectedRoot: path.join(spoolRoot, "rejected"),
    });
  });

  const loop = monitorEventLoopDelay({ resolution: 10 });
  loop.enable();
  const cpu = machineCpuMeter();
  const split = groupCpuMeter(opts.cpuGroups);
  const others = busiestOthersMeter(opts.cpuGroups);
  const started = nowMs();
  const period = 1000 / opts.linesPerSecond;
  const perRun = Math.round(opts.seconds * opts.linesPerSecond);
  // Each run writes on its own schedule, offset at random within one period: real probes do not
  // print in lockstep. Lines are ~100 characters, like a sar row.
  await Promise.all(
    streamers.map(async (streamer, r) => {
      const offset = Math.random() * period;
      for (let n = 0; n < perRun; n++) {
        const due = started + offset + n * period;
        const wait = due - nowMs();
        if (wait > 0) await sleep(wait);
        streamer.write(`bench ${r} ${n} ${nowMs().toFixed(3)} ${"kbmemfree kbavail kbmemused %memused kbbuffers kbcached".padEnd(60, ".")}\n`);
      }
    }),
  );
  const machineCpuPct = cpu();
  const cpuPctOfCore = split();
  const otherProcesses = others();
  loop.disable();

  const outcomes = await Promise.all(
    streamers.map((s) =>
      s.finish({ exitCode: 0, signal: null, durationMs: Math.round(nowMs() - started), error: null, cancelled: false, timedOut: false, interrupted: false, profile: null }),
    ),
  );
  // Every stream ends with `end` once its run is finished; 20 s is far beyond the 2 s safety poll.
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([Promise.all(clients.map((c) => c.done)), new Promise((r) => (timer = setTimeout(r, 20_000)))]);
  clearTimeout(timer);
  await closeClients();
  await removeSpool();

  const finishOutcomes: Record<string, number> = {};
  for (const o of outcomes) finishOutcomes[o] = (finishOutcomes[o] ?? 0) + 1;
  const sent = perRun * streamers.length;
  return {
    runs: runIds.length,
    linesSent: sent,
    linesReceived: seen.size,
    linesLost: sent - seen.size,
    latencyMs: summarize(latencies),
    uploadMs: summarize(uploads),
    chunksUploaded: streamers.reduce((a, s) => a + s.lastSeq + 1, 0),
    benchLoopDelayMs: { p99: loop.percentile(99) / 1e6, max: loop.max / 1e6 },
    machineCpuPct,
    cpuPctOfCore,
    otherProcesses,
    finishOutcomes,
    streamerWarnings: log.lines.filter((l) => !l.startsWith("info")).slice(0, 10),
  };
}
