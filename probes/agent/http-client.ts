import { backoffDelay, DEFAULT_BACKOFF, sleep, type BackoffPolicy } from "./backoff";
import { keepAliveAgent, postRaw, type RawResponse } from "./http-transport";
import { AgentSocket, SocketUnsupported } from "./socket-transport";

/**
 * network/server: the server is away or broken for a while — retry, never drop data.
 * revoked: 401/403, the credential is no longer valid — stop the agent.
 * client: any other 4xx — our request is wrong; retrying cannot help.
 * protocol: a 2xx whose body does not match the protocol — a version mismatch.
 */
export type HttpFailureKind = "network" | "server" | "revoked" | "client" | "protocol";

export class HttpError extends Error {
  constructor(
    readonly kind: HttpFailureKind,
    readonly status: number | null,
    message: string,
    readonly body: unknown = null,
  ) {
    super(message);
    this.name = "HttpError";
  }
  get retryable(): boolean {
    return this.kind === "network" || this.kind === "server";
  }
}

export interface HttpResponse {
  status: number;
  body: unknown;
}

export interface PostOptions {
  timeoutMs?: number;
  signal?: AbortSignal;
  /** false for register, which authenticates with the registration token in its body. */
  auth?: boolean;
}

/**
 * auto: the agent socket, falling back to HTTP for a server without it (tried again after 10 min).
 * socket: the socket only; a server without it is an error to act on. http: plain POSTs only.
 */
export type AgentTransport = "auto" | "socket" | "http";
export const AGENT_TRANSPORTS: readonly AgentTransport[] = ["auto", "socket", "http"];

export interface HttpClientOptions {
  server: string;
  /** Default "auto". */
  transport?: AgentTransport;
  /** Called when requests start going over the other transport (for the agent's log). */
  onTransport?: (transport: "socket" | "http") => void;
  /** How long the socket's upgrade may go unanswered before HTTP is used (tests shorten it). */
  socketHandshakeTimeoutMs?: number;
  credential?: string | null;
  timeoutMs?: number;
  backoff?: BackoffPolicy;
  random?: () => number;
  onRetry?: (error: HttpError, attempt: number, delayMs: number) => void;
}

function serverMessage(body: unknown, fallback: string): string {
  if (typeof body === "object" && body !== null && "error" in body && typeof body.error === "string") return body.error;
  return fallback;
}

function networkReason(err: unknown): string {
  if (err instanceof Error && (err.name === "TimeoutError" || err.name === "AbortError")) return "request timed out";
  const code = (err as { code?: unknown } | null)?.code;
  return typeof code === "string" ? code : err instanceof Error ? err.message : String(err);
}

/**
 * JSON to <server>/api/agent/…, with the agent's bearer credential: over the agent socket
 * (socket-transport.ts) or HTTP POSTs, answered alike.
 */
export class AgentHttpClient {
  private credential: string | null;
  private readonly sockets: ReturnType<typeof keepAliveAgent>;

  private readonly socket: AgentSocket | null;
  private readonly mode: AgentTransport;
  private lastUsed: "socket" | "http" | null = null;

  constructor(private readonly opts: HttpClientOptions) {
    this.credential = opts.credential ?? null;
    this.sockets = keepAliveAgent(opts.server);
    this.mode = opts.transport ?? "auto";
    this.socket =
      this.mode === "http"
        ? null
        : new AgentSocket({
            server: opts.server,
            credential: this.credential,
            handshakeTimeoutMs: opts.socketHandshakeTimeoutMs,
            // --transport socket has nothing to fall back to: each attempt tries the socket again.
            ...(this.mode === "socket" ? { retryAfterUnsupportedMs: 0 } : {}),
            onOpen: () => this.used("socket"),
          });
  }

  setCredential(credential: string | null): void {
    this.credential = credential;
    // The socket was opened with the old credential (or was refused for it): it goes.
    this.socket?.setCredential(credential);
  }

  /**
   * What requests go over now: "socket" once the socket has connected (or with --transport
   * socket), "http" before that in auto mode and while a server without the socket is left alone.
   */
  transportInUse(): "socket" | "http" {
    if (!this.socket) return "http";
    if (this.mode === "socket") return "socket";
    return this.socket.hasConnected() ? "socket" : "http";
  }

  /** Shutdown: closes the socket (kept-alive HTTP connections go with the process). */
  close(): void {
    this.socket?.close();
  }

  private used(transport: "socket" | "http"): void {
    if (this.lastUsed === transport) return;
    this.lastUsed = transport;
    this.opts.onTransport?.(transport);
  }

  /** One exchange over the socket when it may be used, else over HTTP. */
  private async exchange(path: string, url: string, headers: Record<string, string>, bodyText: string, opts: PostOptions, timeoutMs: number): Promise<RawResponse> {
    // Register carries no credential and the socket is signed in with one: HTTP.
    // A credential the socket refused is asked about over HTTP (see AgentSocket.isRefused).
    const socket = opts.auth !== false && this.credential && !this.socket?.isRefused() ? this.socket : null;
    if (socket && (this.mode === "socket" || socket.available())) {
      try {
        const res = await socket.request(path, bodyText, { timeoutMs, signal: opts.signal });
        this.used("socket");
        return res;
      } catch (err) {
        if (!(err instanceof SocketUnsupported)) throw err;
        if (this.mode === "socket") {
          // Retried like any network failure, never a refusal of the request: a server that is
          // restarting or slow can look like this too, and a refusal would set the run's output aside.
          throw new HttpError("network", null, `${this.opts.server} does not answer on the agent socket (${err.message}); if it predates the socket, use --transport http (or auto)`);
        }
      }
    }
    const res = await postRaw({ agent: this.sockets, url, headers, body: bodyText, timeoutMs, signal: opts.signal });
    // After a revocation HTTP only hears the server's last word: not a change of transport to report.
    if (opts.auth !== false && !this.socket?.isRefused()) this.used("http");
    return res;
  }

  /** One attempt. Resolves for 2xx; throws HttpError otherwise. */
  async post(path: string, body: unknown, opts: PostOptions = {}): Promise<HttpResponse> {
    const url = `${this.opts.server.replace(/\/+$/, "")}${path}`;
    const headers: Record<string, string> = { "content-type": "application/json", accept: "application/json" };
    if (opts.auth !== false && this.credential) headers.authorization = `Bearer ${this.credential}`;
    let res: { status: number; statusText: string };
    let text: string;
    const timeoutMs = opts.timeoutMs ?? this.opts.timeoutMs ?? 30_000;
    try {
      ({ text, ...res } = await this.exchange(path, url, headers, JSON.stringify(body), opts, timeoutMs));
    } catch (err) {
      if (opts.signal?.aborted) throw opts.signal.reason ?? err;
      if (err instanceof HttpError) throw err;
      throw new HttpError("network", null, `cannot reach ${url}: ${networkReason(err)}`);
    }
    let json: unknown = null;
    if (text.length > 0) {
      try {
        json = JSON.parse(text);
      } catch {
        json = null;
      }
    }
    const s = res.status;
    if (s >= 200 && s < 300) {
      if (text.length > 0 && json === null && text.trim() !== "null") {
        // A proxy's HTML page on 200 is a broken hop on the way, not our server answering.
        throw new HttpError("server", s, `${url} answered ${s} with a body that is not JSON`);
      }
      return { status: s, body: json };
    }
    const message = serverMessage(json, text.slice(0, 200) || res.statusText);
    if (s === 401 || s === 403) throw new HttpError("revoked", s, message, json);
    if (s === 408 || s === 429 || s >= 500) throw new HttpError("server", s, `${url} answered ${s}: ${message}`, json);
    throw new HttpError("client", s, message, json);
  }

  /**
   * Retries network errors and 5xx with backoff + jitter until it succeeds, a non-retryable
   * error comes back, maxAttempts is reached, or the signal aborts (then the abort reason is thrown).
   */
  async postWithRetry(path: string, body: unknown, opts: PostOptions & { maxAttempts?: number } = {}): Promise<HttpResponse> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.post(path, body, opts);
      } catch (err) {
        if (!(err instanceof HttpError) || !err.retryable) throw err;
        if (opts.maxAttempts !== undefined && attempt + 1 >= opts.maxAttempts) throw err;
        const delay = backoffDelay(attempt, this.opts.backoff ?? DEFAULT_BACKOFF, this.opts.random);
        this.opts.onRetry?.(err, attempt + 1, delay);
        await sleep(delay, opts.signal);
        if (opts.signal?.aborted) throw opts.signal.reason;
      }
    }
  }
}
