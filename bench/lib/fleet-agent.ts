// A simulated agent for bench/fleet.ts: the same exchanges as probes/agent (claim long-poll,
// chunk uploads with seq, finish; idle heartbeats when the agent sends them) without a pty or a
// spool, so thousands fit in one bench process. What it measures is the server, not the agent.
// Over HTTP (one request per operation, claims answered within 50 s) or over the agent socket
// (one connection, the same operations as frames, a claim that waits 15 minutes and is answered
// the moment a job is queued; the socket reconnects when the server closes it).
import { SOCKET_CLAIM_WAIT_SEC } from "../../probes/protocol/agent-socket";
import { CLAIM_WAIT_SEC } from "../../probes/protocol/schemas";
import { BenchSocket, type SocketCounters, type Transport } from "./agent-socket-client";
import { nowMs } from "./stats";

export interface FleetJob {
  /** The run the bench is queueing for this host (known once POST /api/runs answers). */
  runId: Promise<string>;
  /** When the bench sent POST /api/runs (ms, nowMs clock). */
  queuedAt: number;
  /** Resolves when the browser watching the run is subscribed (or gives up): lines start then. */
  watched: Promise<void>;
  lines: number;
  onPickup(ms: number): void;
  onDone(): void;
}

export interface FleetCounters {
  requests: Record<string, number>;
  errors: Record<string, number>;
  /** Runs a claim returned that were not queued for this host, or returned twice. */
  wrongClaims: number;
  /** The socket transport's reconnects and connection errors (the HTTP transport leaves it alone). */
  socket: SocketCounters;
}

/** What one operation brought back: status and parsed body, or null when nothing came. */
type Answer = { status: number; body: unknown } | null;

/** Sleeps ms, or until the signal aborts; its listener goes with it (an agent sleeps thousands of times). */
const sleep = (ms: number, signal?: AbortSignal) =>
  new Promise<void>((resolve) => {
    const onAbort = () => (clearTimeout(t), resolve());
    const t = setTimeout(() => (signal?.removeEventListener("abort", onAbort), resolve()), ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });

export class FleetAgent {
  busy = false;
  private readonly abort = new AbortController();
  /** Set before the run is queued: the claim may answer before POST /api/runs does. */
  private next: FleetJob | null = null;
  private readonly claimed = new Set<string>();
  private readonly socket: BenchSocket | null;

  constructor(
    readonly hostId: string,
    private readonly credential: string,
    /** The instance this agent talks to. */
    readonly base: string,
    private readonly counters: FleetCounters,
    private readonly idleHeartbeatMs: number | null,
    readonly transport: Transport = "http",
  ) {
    this.socket = transport === "socket" ? new BenchSocket(base, credential, counters.socket) : null;
  }

  /** Whether the agent socket is open now (always true over HTTP, which holds no connection). */
  get connected(): boolean {
    return this.socket ? this.socket.connected : true;
  }

  /** The bench is queueing `job` for this host; the next claim should return it. */
  expect(job: FleetJob): void {
    this.busy = true;
    this.next = job;
  }

  /** Queueing failed: nothing is coming. */
  cancelExpectation(): void {
    this.next = null;
    this.busy = false;
  }

  /** Starts polling after `delayMs` (a fleet that has been up a while polls at scattered moments). */
  start(delayMs = 0): void {
    if (delayMs > 0) {
      setTimeout(() => this.start(), delayMs).unref();
      return;
    }
    void this.claimLoop();
    if (this.idleHeartbeatMs) void this.heartbeatLoop(this.idleHeartbeatMs);
  }

  stop(): void {
    this.abort.abort();
    this.socket?.stop();
  }

  private count(kind: string, status: number | "network"): void {
    this.counters.requests[kind] = (this.counters.requests[kind] ?? 0) + 1;
    const bad = status === "network" || status >= 400;
    if (bad) {
      const key = `${kind} ${status}`;
      this.counters.errors[key] = (this.counters.errors[key] ?? 0) + 1;
    }
  }

  private async post(kind: string, path: string, body: unknown): Promise<Answer> {
    if (this.socket) {
      const answer = await this.socket.request(path, body);
      // null: the socket closed under the request (a restart); the reconnect is counted, not this.
      if (answer) this.count(kind, answer.status);
      return answer;
    }
    try {
      const res = await fetch(`${this.base}${path}`, {
        method: "POST",
        headers: { authorization: `Bearer ${this.credential}`, "content-type": "application/json" },
        body: JSON.stringify(body),
        signal: this.abort.signal,
      });
      this.count(kind, res.status);
      const text = await res.text();
      return { status: res.status, body: text ? (JSON.parse(text) as unknown) : null };
    } catch {
      if (!this.abort.signal.aborted) this.count(kind, "network");
      return null;
    }
  }

  private async claimLoop(): Promise<void> {
    const signal = this.abort.signal;
    const waitSec = this.socket ? SOCKET_CLAIM_WAIT_SEC : CLAIM_WAIT_SEC;
    while (!signal.aborted) {
      const res = await this.post("claim", "/api/agent/jobs/claim", { waitSec });
      if (!res && this.socket) continue;
      if (!res || res.status >= 400) {
        await sleep(1000 + Math.random() * 1000, signal);
        continue;
      }
      if (res.status === 204) continue;
      const job = res.body as { runId?: string } | null;
      const at = nowMs();
      const mine = this.next;
      const expected = mine ? await mine.runId.catch(() => null) : null;
      if (!mine || !job?.runId || job.runId !== expected || this.claimed.has(job.runId)) {
        this.counters.wrongClaims++;
        continue;
      }
      this.next = null;
      this.claimed.add(job.runId);
      mine.onPickup(at - mine.queuedAt);
      await this.stream(job.runId, mine);
      mine.onDone();
      this.busy = false;
    }
  }

  /** One line a second, each uploaded as it comes (what the agent's chunker does at that rate). */
  private async stream(runId: string, job: FleetJob): Promise<void> {
    await Promise.race([job.watched, sleep(5000)]);
    const started = nowMs();
    for (let seq = 0; seq < job.lines && !this.abort.signal.aborted; seq++) {
      const due = started + seq * 1000;
      const wait = due - nowMs();
      if (wait > 0) await sleep(wait, this.abort.signal);
      const line = `fleet ${runId} ${seq} ${nowMs().toFixed(3)} ${"kbmemfree kbavail kbmemused %memused".padEnd(60, ".")}\n`;
      await this.post("chunks", `/api/agent/runs/${runId}/chunks`, { chunks: [{ seq, data: line }] });
    }
    await this.post("finish", `/api/agent/runs/${runId}/finish`, {
      exitCode: 0,
      signal: null,
      durationMs: Math.round(nowMs() - started),
      lastSeq: job.lines - 1,
      error: null,
      cancelled: false,
      timedOut: false,
      interrupted: false,
      profile: null,
    });
  }

  /** What an agent that beats while idle sends (the runs list is empty: these agents are idle). */
  private async heartbeatLoop(periodMs: number): Promise<void> {
    const signal = this.abort.signal;
    await sleep(Math.random() * periodMs, signal);
    while (!signal.aborted) {
      if (!this.busy) {
        await this.post("heartbeat", "/api/agent/heartbeat", { runningRunIds: [] });
      }
      await sleep(periodMs, signal);
    }
  }
}
