// The agent socket as the benches speak it (probes/protocol/agent-socket.ts): one `ws`
// connection per agent, numbered request frames, replies matched by id, and a reconnect with a
// short jittered backoff whenever the socket closes — what an agent does when its server
// restarts. Requests made while the socket is down wait for the next connection.
import WebSocket from "ws";
import { AGENT_SOCKET_PATH, AGENT_SOCKET_PROTOCOLS, SOCKET_CLOSE } from "../../probes/protocol/agent-socket";
import { AgentApi } from "../../probes/agent/agent-api";
import { AgentHttpClient, HttpError, type HttpResponse, type PostOptions } from "../../probes/agent/http-client";
import type { FakeAgent } from "./api";
import { onCleanup } from "./cleanup";

/** How a bench agent talks to the server: a request per operation, or frames on its socket. */
export const TRANSPORTS = ["http", "socket"] as const;
export type Transport = (typeof TRANSPORTS)[number];

export interface SocketCounters {
  /** Sockets opened after the first one (the server closed or dropped the previous one). */
  reconnects: number;
  /** Upgrades refused with an HTTP status, sockets closed with a 44xx code, frames that are not replies. */
  errors: Record<string, number>;
  /** Connection attempts that found nobody listening (the instance is restarting): not errors. */
  refused: number;
}

export const newSocketCounters = (): SocketCounters => ({ reconnects: 0, errors: {}, refused: 0 });

export interface SocketAnswer {
  status: number;
  body: unknown;
}

const MAX_BACKOFF_MS = 5000;

/** The ws URL of a server's agent socket. */
export const socketUrl = (base: string) => `${base.replace(/^http/, "ws").replace(/\/+$/, "")}${AGENT_SOCKET_PATH}`;

export class BenchSocket {
  private ws: WebSocket | null = null;
  private nextId = 1;
  private readonly waiting = new Map<number, (a: SocketAnswer | null) => void>();
  private started = false;
  /** Resolves when a socket is open (or the bench stopped); replaced by a pending one at each close. */
  private ready!: Promise<void>;
  private markReady: () => void = () => undefined;
  private isReady: boolean | null = null;
  private stopped = false;
  private everOpen = false;
  private attempt = 0;
  /** Called each time a socket opens (the first time and after every reconnect). */
  onOpen: (() => void) | null = null;

  constructor(
    private readonly base: string,
    private readonly credential: string,
    private readonly counters: SocketCounters,
  ) {
    this.unready();
  }

  /** Requests from now on wait for the next open socket (those already waiting keep waiting for it). */
  private unready(): void {
    if (this.isReady === false) return;
    this.isReady = false;
    this.ready = new Promise<void>((resolve) => (this.markReady = () => ((this.isReady = true), resolve())));
  }

  get connected(): boolean {
    return this.ws?.readyState === WebSocket.OPEN;
  }

  /** Opens the socket (and keeps it open until stop()); resolves once it is open. */
  connect(): Promise<void> {
    if (!this.started) {
      this.started = true;
      this.open();
    }
    return this.ready;
  }

  stop(): void {
    this.stopped = true;
    this.ws?.terminate();
    this.markReady();
    for (const done of this.waiting.values()) done(null);
    this.waiting.clear();
  }

  /** One operation, sent once a socket is open: its answer, or null when the socket closed before it came (or the bench stopped). */
  async request(path: string, body: unknown): Promise<SocketAnswer | null> {
    await this.connect();
    const ws = this.ws;
    if (this.stopped || !ws || ws.readyState !== WebSocket.OPEN) return null;
    const id = this.nextId;
    this.nextId = this.nextId >= 2 ** 31 - 1 ? 1 : this.nextId + 1;
    return new Promise((resolve) => {
      this.waiting.set(id, resolve);
      ws.send(JSON.stringify({ id, path, body }));
    });
  }

  private error(kind: string): void {
    this.counters.errors[kind] = (this.counters.errors[kind] ?? 0) + 1;
  }

  private open(): void {
    if (this.stopped) return;
    const ws = new WebSocket(socketUrl(this.base), [...AGENT_SOCKET_PROTOCOLS], {
      headers: { authorization: `Bearer ${this.credential}` },
      perMessageDeflate: false,
    });
    this.ws = ws;
    ws.on("open", () => {
      if (this.everOpen) this.counters.reconnects++;
      this.everOpen = true;
      this.attempt = 0;
      this.onOpen?.();
      this.markReady();
    });
    ws.on("unexpected-response", (_req, res) => {
      this.error(`upgrade ${res.statusCode}`);
      res.resume();
      ws.terminate();
    });
    ws.on("error", (err: NodeJS.ErrnoException) => {
      if (err.code === "ECONNREFUSED" || err.code === "ECONNRESET") this.counters.refused++;
      else if (!/Unexpected server response/.test(err.message)) this.error(`socket ${err.code ?? err.message.slice(0, 40)}`);
    });
    ws.on("message", (data) => {
      let reply: { id?: unknown; status?: unknown; body?: unknown };
      try {
        reply = JSON.parse(data.toString()) as typeof reply;
      } catch {
        return this.error("frame not JSON");
      }
      const done = typeof reply.id === "number" ? this.waiting.get(reply.id) : undefined;
      if (!done || typeof reply.status !== "number") return this.error("frame not a reply");
      this.waiting.delete(reply.id as number);
      done({ status: reply.status, body: reply.body ?? null });
    });
    ws.on("close", (code) => {
      if (code >= 4400 && code < 4500) this.error(`closed ${code === SOCKET_CLOSE.revoked ? "4401 revoked" : code}`);
      for (const done of this.waiting.values()) done(null);
      this.waiting.clear();
      if (this.stopped) return;
      // Revoked: the agent stops, as on an HTTP 401; requests wait for ever (until stop()).
      this.unready();
      if (code === SOCKET_CLOSE.revoked) return;
      // Jittered and growing, capped at a few seconds: a restarted instance is back within seconds,
      // and a fleet that all reconnects in the same millisecond is the storm to avoid.
      const delay = Math.min(MAX_BACKOFF_MS, 250 * 2 ** this.attempt++) * (0.5 + Math.random());
      setTimeout(() => this.open(), delay).unref();
    });
  }
}

/**
 * The agent's own HTTP client, its every POST carried as a frame on the agent socket instead: the
 * agent's AgentApi (and LogStreamer on top of it) then speak the socket unchanged, with the same
 * answers and the same HttpError on a failure.
 */
export class SocketHttpClient extends AgentHttpClient {
  constructor(private readonly benchSocket: BenchSocket) {
    super({ server: "http://socket.invalid", transport: "http" });
  }

  override async post(path: string, body: unknown, opts: PostOptions = {}): Promise<HttpResponse> {
    if (opts.signal?.aborted) throw opts.signal.reason;
    const answer = await this.benchSocket.request(path, body);
    if (!answer) throw new HttpError("network", null, `the agent socket closed before ${path} was answered`);
    const s = answer.status;
    if (s >= 200 && s < 300) return { status: s, body: answer.body };
    const error = (answer.body as { error?: unknown } | null)?.error;
    const message = typeof error === "string" ? error : `${path} answered ${s}`;
    if (s === 401 || s === 403) throw new HttpError("revoked", s, message, answer.body);
    if (s === 408 || s === 429 || s >= 500) throw new HttpError("server", s, message, answer.body);
    throw new HttpError("client", s, message, answer.body);
  }
}

/** The same host as `agent`, its operations over the agent socket to `base` (opened at the first one, closed at cleanup). */
export function socketFakeAgent(agent: FakeAgent, base: string, counters: SocketCounters = newSocketCounters()): FakeAgent {
  const socket = new BenchSocket(base, agent.credential, counters);
  onCleanup("an agent socket", () => socket.stop());
  return { hostId: agent.hostId, credential: agent.credential, api: new AgentApi(new SocketHttpClient(socket)) };
}
