// The agent's side of the agent socket (probes/protocol/agent-socket.ts): one WebSocket that carries
// the requests of /api/agent/* as numbered frames and hands back each answer as the RawResponse
// an HTTP POST would have given, so AgentHttpClient judges both alike (2xx, 401/403, 4xx, 5xx).
import { STATUS_CODES, type IncomingMessage } from "node:http";
import WebSocket from "ws";
import {
  AGENT_SOCKET_PATH,
  AGENT_SOCKET_PROTOCOLS,
  MAX_SOCKET_FRAME_BYTES,
  MAX_SOCKET_IN_FLIGHT,
  SOCKET_CLOSE,
  SOCKET_PING_MS,
  closeReason,
  socketReplySchema,
} from "../protocol/agent-socket";
import { RequestTimeout, type RawResponse } from "./http-transport";

/** After a server said it has no socket (or no version in common), HTTP is used this long. */
export const SOCKET_RETRY_AFTER_UNSUPPORTED_MS = 10 * 60_000;

/** The server has no agent socket, or none in a version this agent speaks: use HTTP. */
export class SocketUnsupported extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SocketUnsupported";
  }
}

/** The connection failed or went away; the request may not have been answered (network, retryable). */
export class SocketClosed extends Error {
  constructor(message: string) {
    super(message);
    this.name = "SocketClosed";
  }
}

/** A connection attempt outlived the credential it was made with: the requests go on a new one. */
class CredentialChanged extends SocketClosed {}

export interface AgentSocketOptions {
  /** The dashboard's http(s) URL; the socket is ws(s)://…/api/agent/socket. */
  server: string;
  credential: string | null;
  now?: () => number;
  retryAfterUnsupportedMs?: number;
  maxInFlight?: number;
  handshakeTimeoutMs?: number;
  /** Each time a connection opens (the client logs the transport then, not after a claim's long wait). */
  onOpen?: () => void;
  /** No ping from the server for this long: the connection is dead (the server pings every SOCKET_PING_MS). */
  deadAfterMs?: number;
}

export interface SocketRequestOptions {
  timeoutMs: number;
  signal?: AbortSignal;
}

interface Pending {
  resolve: (r: RawResponse) => void;
  reject: (err: unknown) => void;
}

interface Waiting {
  frame: (id: number) => string;
  pending: Pending;
  /** Set once sent: its id on the connection it went out on. */
  sentOn: { ws: WebSocket; id: number } | null;
  /** Its caller has its answer or gave up (timeout, abort); a sent one still holds its slot until answered. */
  settled: boolean;
}

const BAD_STATUSES_MEAN_UNSUPPORTED = new Set([400, 404, 405, 426]);

function answer(status: number, body: unknown): RawResponse {
  return { status, statusText: STATUS_CODES[status] ?? "", text: JSON.stringify(body) };
}

function readBody(res: IncomingMessage): Promise<string> {
  return new Promise((resolve) => {
    const parts: Buffer[] = [];
    res.on("data", (d: Buffer) => {
      // An error page is a few hundred bytes; more is not worth keeping.
      if (parts.length < 16) parts.push(d);
    });
    res.on("end", () => resolve(Buffer.concat(parts).toString("utf8").slice(0, 2000)));
    res.on("error", () => resolve(""));
  });
}

/**
 * One agent's socket. Connects on the first request (concurrent callers share the attempt),
 * queues beyond MAX_SOCKET_IN_FLIGHT unanswered requests, and after a close lets every unanswered
 * request fail as a network error: the caller's retry reconnects.
 */
export class AgentSocket {
  private credential: string | null;
  private ws: WebSocket | null = null;
  private connecting: Promise<WebSocket> | null = null;
  private nextId = 1;
  /**
   * Sent and unanswered on the current connection, by id — also those whose caller gave up: the
   * server counts them until it answers, and more than MAX_SOCKET_IN_FLIGHT would be cut (4429).
   */
  private readonly inFlight = new Map<number, Waiting>();
  private readonly queue: Waiting[] = [];
  private unsupportedUntil = 0;
  /** The credential was refused (upgrade 401/403 or close 4401): every request answers this until a new one is set. */
  private refused: RawResponse | null = null;
  private pingWatch: NodeJS.Timeout | null = null;
  private opened = false;
  private closedForGood = false;

  constructor(private readonly opts: AgentSocketOptions) {
    this.credential = opts.credential;
  }

  /** The socket is bound to the credential it was opened with: a new one drops it. */
  setCredential(credential: string | null): void {
    if (credential === this.credential) return;
    this.credential = credential;
    this.refused = null;
    this.drop(1000, "credential changed");
  }

  /** False while a server that answered "no socket" is left alone (10 minutes). */
  available(): boolean {
    return this.now() >= this.unsupportedUntil;
  }

  /**
   * The credential was refused on the socket. Later requests go over HTTP, whose routes give the
   * authoritative answer: a 401, or, for the finish of an experiment run that was in flight when
   * the host was re-registered or deleted, the one report the server still accepts.
   */
  isRefused(): boolean {
    return this.refused !== null;
  }

  /** True once a connection has been opened (and none refused as unsupported since). */
  hasConnected(): boolean {
    return this.opened && this.available();
  }

  /**
   * Sends one request (bodyText: its JSON) and resolves with the server's answer as an HTTP POST
   * would. Rejects with SocketUnsupported (use HTTP), SocketClosed, RequestTimeout or the signal's
   * reason.
   */
  request(path: string, bodyText: string, { timeoutMs, signal }: SocketRequestOptions): Promise<RawResponse> {
    if (this.refused) return Promise.resolve(this.refused);
    if (!this.available()) return Promise.reject(new SocketUnsupported("the server has no agent socket"));
    if (this.closedForGood) return Promise.reject(new SocketClosed("the agent socket is closed"));
    if (signal?.aborted) return Promise.reject(signal.reason);
    const pathJson = JSON.stringify(path);
    const frame = (id: number) => `{"id":${id},"path":${pathJson},"body":${bodyText}}`;
    if (Buffer.byteLength(frame(2 ** 31 - 1)) > MAX_SOCKET_FRAME_BYTES) {
      // The server would cut the connection (1009) and every retry would do it again; HTTP says 413.
      return Promise.resolve(answer(413, { error: `request body over the agent socket's ${MAX_SOCKET_FRAME_BYTES} bytes` }));
    }
    return new Promise<RawResponse>((resolve, reject) => {
      const done = () => {
        item.settled = true;
        clearTimeout(timer);
        signal?.removeEventListener("abort", onAbort);
        const queued = this.queue.indexOf(item);
        if (queued >= 0) this.queue.splice(queued, 1);
        this.pump();
      };
      const item: Waiting = {
        frame,
        sentOn: null,
        settled: false,
        pending: {
          resolve: (r) => {
            if (item.settled) return;
            done();
            resolve(r);
          },
          reject: (e) => {
            if (item.settled) return;
            done();
            reject(e);
          },
        },
      };
      const timer = setTimeout(() => {
        // Not even sent in time while slots are held by answers nobody waits for: the server sits
        // on them, and only a new connection frees them.
        if (!item.sentOn && [...this.inFlight.values()].some((i) => i.settled)) this.drop(1000, "requests left unanswered");
        item.pending.reject(new RequestTimeout(timeoutMs));
      }, timeoutMs);
      const onAbort = () => item.pending.reject(signal?.reason);
      signal?.addEventListener("abort", onAbort, { once: true });
      this.queue.push(item);
      this.pump();
    });
  }

  /** Shutdown: closes the connection; requests still waiting fail. */
  close(): void {
    this.closedForGood = true;
    this.drop(1000, "agent stopping");
    for (const item of this.queue.splice(0)) item.pending.reject(new SocketClosed("the agent socket is closed"));
  }

  private now(): number {
    return (this.opts.now ?? Date.now)();
  }

  /** Sends queued requests while fewer than the cap are unanswered; connects first if needed. */
  private pump(): void {
    if (this.queue.length === 0) return;
    if (this.refused) {
      for (const item of this.queue.slice()) item.pending.resolve(this.refused);
      return;
    }
    const ws = this.ws;
    if (!ws || ws.readyState !== WebSocket.OPEN) {
      this.connect().then(
        () => this.pump(),
        (err: unknown) => {
          if (err instanceof CredentialChanged) return this.pump();
          // Every request waiting for this attempt gets its failure (unsupported, refused, network).
          for (const item of this.queue.slice()) {
            if (this.refused) item.pending.resolve(this.refused);
            else item.pending.reject(err);
          }
        },
      );
      return;
    }
    const cap = this.opts.maxInFlight ?? MAX_SOCKET_IN_FLIGHT;
    while (this.inFlight.size < cap && this.queue.length > 0) {
      const item = this.queue.shift()!;
      const id = this.nextId;
      this.nextId = id >= 2 ** 31 - 1 ? 1 : id + 1;
      item.sentOn = { ws, id };
      this.inFlight.set(id, item);
      ws.send(item.frame(id), (err) => {
        if (err) item.pending.reject(new SocketClosed(`sending over the agent socket failed: ${err.message}`));
      });
    }
  }

  private connect(): Promise<WebSocket> {
    this.connecting ??= this.open().finally(() => {
      this.connecting = null;
    });
    return this.connecting;
  }

  private open(): Promise<WebSocket> {
    const url = new URL(AGENT_SOCKET_PATH, this.opts.server.replace(/\/+$/, "") + "/");
    url.protocol = url.protocol === "https:" ? "wss:" : "ws:";
    // A connection (or refusal) for a credential replaced meanwhile is no longer ours to use.
    const credential = this.credential;
    const headers: Record<string, string> = {};
    if (credential) headers.authorization = `Bearer ${credential}`;
    const ws = new WebSocket(url, [...AGENT_SOCKET_PROTOCOLS], {
      headers,
      maxPayload: MAX_SOCKET_FRAME_BYTES,
      // A server that neither answers nor refuses the upgrade (a server before the socket leaves
      // it hanging, as some proxies do) is waited for this long, then left alone for a while.
      handshakeTimeout: this.opts.handshakeTimeoutMs ?? 10_000,
      // Compression costs CPU on both ends for output that is mostly small numbers.
      perMessageDeflate: false,
    });
    return new Promise<WebSocket>((resolve, reject) => {
      let settled = false;
      const fail = (err: Error) => {
        if (settled) return;
        settled = true;
        reject(err);
      };
      ws.on("unexpected-response", (_req, res) => {
        const status = res.statusCode ?? 0;
        void readBody(res).then((text) => {
          // Judged before the connection is ended, whose close would otherwise count as the failure.
          if (credential !== this.credential) {
            fail(new CredentialChanged("the credential changed while the agent socket connected"));
          } else if (status === 401 || status === 403) {
            this.refused = { status, statusText: res.statusMessage ?? "", text: text || JSON.stringify({ error: "credential refused" }) };
            fail(new SocketClosed(`the agent socket was refused (${status})`));
          } else if (BAD_STATUSES_MEAN_UNSUPPORTED.has(status)) {
            this.markUnsupported();
            fail(new SocketUnsupported(`the server answered the agent socket's upgrade with ${status}`));
          } else {
            fail(new SocketClosed(`the agent socket's upgrade was answered with ${status}`));
          }
          ws.terminate();
        });
      });
      ws.on("error", (err) => {
        // ws refuses an upgrade without a subprotocol it offered: a server with no version in common.
        if (/subprotocol/i.test(err.message) || /handshake has timed out/i.test(err.message) || (err as { code?: string }).code === "ECONNRESET" || /socket hang up/i.test(err.message)) {
          // Also an upgrade left hanging or cut without an answer: the server (or a proxy before
          // it) does not take upgrades here; HTTP reaches it. A server that is down refuses the
          // connection instead (ECONNREFUSED), which stays a network error to retry.
          this.markUnsupported();
          fail(new SocketUnsupported(`the agent socket: ${err.message}`));
        } else fail(new SocketClosed(`agent socket: ${(err as { code?: string }).code ?? err.message}`));
      });
      ws.on("open", () => {
        if (settled || this.closedForGood || credential !== this.credential) {
          ws.close(1000, "not needed");
          return fail(this.closedForGood ? new SocketClosed("the agent socket is closed") : new CredentialChanged("the credential changed while the agent socket connected"));
        }
        settled = true;
        this.opened = true;
        this.ws = ws;
        this.nextId = 1;
        this.watchPings(ws);
        resolve(ws);
        this.opts.onOpen?.();
      });
      ws.on("ping", () => this.watchPings(ws));
      ws.on("message", (data, isBinary) => this.onMessage(ws, isBinary ? null : data.toString()));
      ws.on("close", (code, reason) => {
        fail(new SocketClosed(`the agent socket closed (${code})`));
        this.onClose(ws, code, reason.toString());
      });
    });
  }

  private markUnsupported(): void {
    this.unsupportedUntil = this.now() + (this.opts.retryAfterUnsupportedMs ?? SOCKET_RETRY_AFTER_UNSUPPORTED_MS);
    this.opened = false;
  }

  /** A server that stopped pinging is gone (a host asleep, a dropped NAT entry). */
  private watchPings(ws: WebSocket): void {
    if (this.pingWatch) clearTimeout(this.pingWatch);
    this.pingWatch = setTimeout(() => {
      if (this.ws === ws) ws.terminate();
    }, this.opts.deadAfterMs ?? 2 * SOCKET_PING_MS + 10_000);
    this.pingWatch.unref();
  }

  private onMessage(ws: WebSocket, text: string | null): void {
    if (ws !== this.ws) return;
    let reply;
    try {
      const parsed = socketReplySchema.safeParse(text === null ? null : JSON.parse(text));
      if (!parsed.success) {
        const issue = parsed.error.issues[0];
        throw new Error(`${issue?.path.join(".") || "frame"}: ${issue?.message ?? "invalid"}`);
      }
      reply = parsed.data;
    } catch (err) {
      const why = text === null ? "a binary frame" : err instanceof SyntaxError ? "a frame that is not JSON" : (err as Error).message;
      this.drop(SOCKET_CLOSE.malformed, closeReason(`malformed reply: ${why}`));
      return;
    }
    const item = this.inFlight.get(reply.id);
    if (!item) return;
    this.inFlight.delete(reply.id);
    // Its slot is free; a caller that timed out or aborted meanwhile is not told (resolve is a no-op).
    this.pump();
    item.pending.resolve({ status: reply.status, statusText: STATUS_CODES[reply.status] ?? "", text: reply.body === undefined ? "" : JSON.stringify(reply.body) });
  }

  /** Closes the current connection; its unanswered requests fail as network errors (retried). */
  private drop(code: number, reason: string): void {
    const ws = this.ws;
    if (!ws) return;
    this.detach(ws, new SocketClosed(`the agent socket was closed: ${reason}`));
    ws.close(code, reason);
    // A peer that never answers the close must not keep the connection.
    setTimeout(() => ws.terminate(), 5_000).unref();
  }

  private onClose(ws: WebSocket, code: number, reason: string): void {
    // Only the current connection speaks for the current credential.
    if (code === SOCKET_CLOSE.revoked && ws === this.ws) this.refused = answer(401, { error: reason || "credential revoked" });
    if (ws === this.ws) this.detach(ws, new SocketClosed(`the agent socket closed (${code}${reason ? `: ${reason}` : ""})`));
    if (this.refused) for (const item of this.queue.slice()) item.pending.resolve(this.refused);
  }

  private detach(ws: WebSocket, err: SocketClosed): void {
    if (this.ws !== ws) return;
    this.ws = null;
    if (this.pingWatch) clearTimeout(this.pingWatch);
    this.pingWatch = null;
    for (const item of [...this.inFlight.values()]) {
      if (this.refused) item.pending.resolve(this.refused);
      else item.pending.reject(err);
    }
    this.inFlight.clear();
  }
}
