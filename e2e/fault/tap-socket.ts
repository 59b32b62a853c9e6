// The agent tap's WebSocket half: relays the agent socket (probes/protocol/agent-socket.ts)
// between the agent and the app, frame by frame, and reports every chunk and finish request with
// the reply that carries its frame id, so a socket run is recorded exactly as an HTTP one.
//
// The agent's upgrade is completed only once the app has accepted the matching upstream upgrade
// (same Authorization, same offered versions, the app's pick echoed back); an app that refuses
// answers the agent itself, verbatim. An app that is not there is answered 502, as a proxy
// would: without the tap the agent's connection would be refused (ECONNREFUSED, "server down,
// retry"), which a relay that has already accepted it cannot do, and the agent reads an upgrade
// accepted and then cut as "this server does not take upgrades" (probes/agent/socket-transport.ts)
// and stops using the socket. A 502 keeps the meaning: retry. Close codes (1001 on restart,
// 4401 on revocation, 4400 …) and pings go through unchanged in both directions.
import type http from "node:http";
import type { Duplex } from "node:stream";
import { WebSocket, WebSocketServer, type RawData } from "ws";
import { MAX_SOCKET_FRAME_BYTES } from "../../probes/protocol/agent-socket";

/** What the tap does with what the relay sees (AgentTap implements it). */
export interface SocketTapSink {
  readonly upstreamPort: number;
  /** Chunk frames are swallowed (no reply) while this says so; see AgentTap.hold(). */
  holding(): boolean;
  held(close: () => void): void;
  unreachable(): void;
  /** A run request (chunks or finish) and its reply; status null when none came. */
  record(path: string, sent: unknown, status: number | null, answer: unknown): void;
  session(s: SocketSession): void;
}

/** One relayed agent socket, for the figures: when it opened and how each side closed it. */
export interface SocketSession {
  openedAt: number;
  closedAt: number | null;
  /** Close code the app sent (or 1006 when its connection dropped). */
  appCode: number | null;
  /** Close code the agent sent (or 1006). */
  agentCode: number | null;
}

const RUN_PATH = /^\/api\/agent\/runs\/[0-9a-f-]{36}\/(chunks|finish)$/;

/** Codes a close frame may carry (ws refuses the reserved ones: 1005, 1006, 1015 …). */
function sendable(code: number): boolean {
  return (code >= 1000 && code <= 1014 && code !== 1004 && code !== 1005 && code !== 1006) || (code >= 3000 && code <= 4999);
}

function parse(data: RawData, isBinary: boolean): Record<string, unknown> | null {
  if (isBinary) return null;
  try {
    const v: unknown = JSON.parse(data.toString());
    return v && typeof v === "object" ? (v as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

export class SocketRelay {
  /** The subprotocol the app picked, per agent request, for handleProtocols to echo. */
  private readonly picked = new WeakMap<http.IncomingMessage, string>();
  private readonly wss = new WebSocketServer({
    noServer: true,
    maxPayload: MAX_SOCKET_FRAME_BYTES,
    perMessageDeflate: false,
    clientTracking: false,
    autoPong: false,
    handleProtocols: (_offered, req) => this.picked.get(req) || false,
  });
  private readonly pairs = new Set<{ agent: WebSocket; app: WebSocket }>();

  constructor(private readonly sink: SocketTapSink) {}

  upgrade(req: http.IncomingMessage, socket: Duplex, head: Buffer): void {
    socket.on("error", () => undefined);
    const offered = String(req.headers["sec-websocket-protocol"] ?? "")
      .split(",")
      .map((p) => p.trim())
      .filter(Boolean);
    const headers: Record<string, string> = {};
    if (req.headers.authorization !== undefined) headers.authorization = req.headers.authorization;
    const app = new WebSocket(`ws://127.0.0.1:${this.sink.upstreamPort}${req.url ?? "/"}`, offered, {
      headers,
      perMessageDeflate: false,
      maxPayload: MAX_SOCKET_FRAME_BYTES,
      autoPong: false,
      handshakeTimeout: 10_000,
    });
    let settled = false;
    // The app refused the upgrade (400, 401, 429 …): the agent gets that very answer.
    app.on("unexpected-response", (upgradeRequest, res) => {
      settled = true;
      const parts: Buffer[] = [];
      res.on("data", (d: Buffer) => parts.push(d));
      res.on("error", () => socket.destroy());
      res.on("end", () => {
        const body = Buffer.concat(parts);
        const lines = [`HTTP/1.1 ${res.statusCode ?? 502} ${res.statusMessage ?? ""}`];
        for (const [k, v] of Object.entries(res.headers)) {
          if (["connection", "transfer-encoding", "content-length", "keep-alive"].includes(k) || v === undefined) continue;
          for (const one of Array.isArray(v) ? v : [v]) lines.push(`${k}: ${one}`);
        }
        lines.push(`content-length: ${body.length}`, "connection: close");
        if (!socket.destroyed) socket.end(Buffer.concat([Buffer.from(`${lines.join("\r\n")}\r\n\r\n`), body]));
        upgradeRequest.destroy();
      });
    });
    app.on("error", (err) => {
      if (settled) return;
      settled = true;
      this.sink.unreachable();
      const body = JSON.stringify({ error: `the agent tap found no app behind it (${(err as { code?: string }).code ?? err.message})` });
      if (!socket.destroyed) {
        socket.end(`HTTP/1.1 502 Bad Gateway\r\ncontent-type: application/json\r\ncontent-length: ${Buffer.byteLength(body)}\r\nconnection: close\r\n\r\n${body}`);
      }
    });
    app.once("open", () => {
      settled = true;
      if (socket.destroyed) return void app.terminate();
      this.picked.set(req, app.protocol);
      this.wss.handleUpgrade(req, socket, head, (agent) => this.wire(agent, app));
    });
    // The agent hung up before the app answered.
    socket.once("close", () => {
      if (!settled) app.terminate();
    });
  }

  /** Ends every relayed socket (the tap stops). */
  stop(): void {
    for (const p of this.pairs) {
      p.agent.terminate();
      p.app.terminate();
    }
    this.pairs.clear();
    this.wss.close();
  }

  private wire(agent: WebSocket, app: WebSocket): void {
    const pair = { agent, app };
    this.pairs.add(pair);
    const session: SocketSession = { openedAt: Date.now(), closedAt: null, appCode: null, agentCode: null };
    this.sink.session(session);
    /** Run requests forwarded to the app and not yet answered, by frame id. */
    const pending = new Map<number, { path: string; sent: unknown }>();
    const unanswered = () => {
      for (const p of pending.values()) this.sink.record(p.path, p.sent, null, null);
      pending.clear();
    };
    agent.on("error", () => undefined);
    app.on("error", () => undefined);

    agent.on("message", (data, isBinary) => {
      const frame = parse(data, isBinary);
      const path = typeof frame?.path === "string" ? frame.path : "";
      const m = RUN_PATH.exec(path);
      if (frame && m && typeof frame.id === "number") {
        if (m[1] === "chunks" && this.sink.holding()) {
          // Reaches the tap, never the app, never answered: a link gone dead under the agent.
          this.sink.record(path, frame.body, null, null);
          this.sink.held(() => agent.terminate());
          return;
        }
        pending.set(frame.id, { path, sent: frame.body });
      }
      if (app.readyState === WebSocket.OPEN) app.send(data, { binary: isBinary });
    });
    app.on("message", (data, isBinary) => {
      const frame = parse(data, isBinary);
      if (frame && typeof frame.id === "number" && typeof frame.status === "number") {
        const p = pending.get(frame.id);
        if (p) {
          pending.delete(frame.id);
          this.sink.record(p.path, p.sent, frame.status, frame.body ?? null);
        }
      }
      if (agent.readyState === WebSocket.OPEN) agent.send(data, { binary: isBinary });
    });

    // Pings prove the agent alive to the app: they must cross the tap, not be answered by it.
    app.on("ping", (d) => agent.readyState === WebSocket.OPEN && agent.ping(d));
    agent.on("pong", (d) => app.readyState === WebSocket.OPEN && app.pong(d));
    agent.on("ping", (d) => app.readyState === WebSocket.OPEN && app.ping(d));
    app.on("pong", (d) => agent.readyState === WebSocket.OPEN && agent.pong(d));

    const passClose = (to: WebSocket, code: number, reason: Buffer) => {
      if (to.readyState === WebSocket.CLOSED) return;
      if (sendable(code) && to.readyState === WebSocket.OPEN) to.close(code, reason);
      else to.terminate();
    };
    app.on("close", (code, reason) => {
      session.appCode ??= code;
      session.closedAt ??= Date.now();
      unanswered();
      passClose(agent, code, reason);
      this.pairs.delete(pair);
    });
    agent.on("close", (code, reason) => {
      session.agentCode ??= code;
      session.closedAt ??= Date.now();
      unanswered();
      passClose(app, code, reason);
      this.pairs.delete(pair);
    });
  }
}
