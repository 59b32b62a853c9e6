// The agent socket (probes/protocol/agent-socket.ts): one WebSocket per agent, signed in once at
// the upgrade, over which the agent sends the operations of /api/agent/* as numbered frames and
// the server answers each with what the HTTP route would. Its claim waits up to 15 minutes, so an
// idle agent costs the server a ping every 30 s and nothing else, and its job arrives the moment
// it is queued.
import type { IncomingMessage } from "node:http";
import type { Duplex } from "node:stream";
import { WebSocketServer, type RawData, type WebSocket } from "ws";
import { errorBody, refusePrototypeKeys } from "../http/handle-route";
import { instance } from "../instance/instance";
import type { AgentConnection } from "../instance/agent-sockets";
import { agentCredentialHash, agentHostOf } from "../server/agent/authenticate-agent";
import { unknownCredential } from "../server/agent/unknown-credential";
import {
  AGENT_SOCKET_PROTOCOLS,
  MAX_SOCKET_FRAME_BYTES,
  MAX_SOCKET_IN_FLIGHT,
  SOCKET_CLOSE,
  closeReason,
  pickAgentSocketProtocol,
  socketRequestSchema,
  type SocketReply,
} from "../../probes/protocol/agent-socket";
import { addressHeaders, matchAgentPath, serveAgentCall, type AgentAnswer } from "./serve-agent-call";

interface Connection extends AgentConnection {
  readonly ws: WebSocket;
  readonly authorization: string;
  /** The upgrade's address headers (addressHeaders), made into a Headers object only per request. */
  readonly kept: [string, string][];
  /** Requests being served, by frame id: aborted when the socket closes (a waiting claim ends). */
  readonly inFlight: Map<number, AbortController>;
}

export class AgentSocketServer {
  private readonly wss = new WebSocketServer({
    noServer: true,
    maxPayload: MAX_SOCKET_FRAME_BYTES,
    // Frames are small JSON, mostly; compression would cost CPU per frame on both sides.
    perMessageDeflate: false,
    clientTracking: false,
    handleProtocols: (offered) => pickAgentSocketProtocol(offered) ?? false,
  });

  /**
   * Completes an upgrade to the agent socket, or answers it with the HTTP status and JSON error
   * an agent request would get: 400 without a protocol version in common, 401 for a credential no
   * host holds, 429 over the agent's rate limit.
   */
  async handleUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): Promise<void> {
    socket.on("error", () => undefined);
    const offered = (req.headers["sec-websocket-protocol"] ?? "").split(",").map((p) => p.trim()).filter(Boolean);
    if (!pickAgentSocketProtocol(offered)) {
      const said = offered.length ? `offered ${offered.join(", ")}` : "offered none";
      return refuse(socket, 400, { error: `The agent socket speaks ${AGENT_SOCKET_PROTOCOLS.join(", ")}; this agent ${said}. Use HTTP (--transport http) or upgrade the agent.` });
    }
    const authorization = req.headers.authorization ?? "";
    let credentialHash: string;
    let hostId: string;
    try {
      credentialHash = await agentCredentialHash(authorization);
      const host = await agentHostOf(credentialHash);
      if (!host) throw unknownCredential();
      hostId = host.id;
    } catch (err) {
      const { status, body } = errorBody(err);
      return refuse(socket, status, body);
    }
    // As plain strings: a fleet keeps ten thousand of these, and a Headers object costs a kilobyte or two.
    const kept = addressHeaders(req);
    this.wss.handleUpgrade(req, socket, head, (ws) => void this.accept(ws, { hostId, credentialHash, authorization, kept }));
  }

  /** Closes every socket with 1001 (tests, shutdown); agents reconnect. */
  close(): void {
    instance().agentSockets.closeAll("The server is restarting.");
  }

  private async accept(ws: WebSocket, who: { hostId: string; credentialHash: string; authorization: string; kept: [string, string][] }): Promise<void> {
    const conn: Connection = {
      ...who,
      ws,
      alive: true,
      inFlight: new Map(),
      ping: () => ws.ping(),
      terminate: () => ws.terminate(),
      revoke: (reason) => ws.close(SOCKET_CLOSE.revoked, closeReason(reason)),
      close: (reason) => ws.close(1001, closeReason(reason)),
    };
    const sockets = instance().agentSockets;
    let remove: (() => void) | null = null;
    ws.on("error", () => undefined);
    ws.on("pong", () => sockets.pong(conn));
    ws.on("message", (data, isBinary) => this.onFrame(conn, data, isBinary));
    ws.on("close", () => {
      for (const c of conn.inFlight.values()) c.abort();
      conn.inFlight.clear();
      remove?.();
      remove = null;
    });
    let r: () => void;
    try {
      r = await sockets.add(conn);
    } catch {
      // The instance is stopping: the agent reconnects, here once it is back or elsewhere.
      ws.close(1001, "The server is restarting.");
      return;
    }
    if (ws.readyState === ws.CLOSED || ws.readyState === ws.CLOSING) r();
    else remove = r;
  }

  private onFrame(conn: Connection, data: RawData, isBinary: boolean): void {
    const malformed = (why: string) => conn.ws.close(SOCKET_CLOSE.malformed, closeReason(why));
    if (isBinary) return malformed("Frames are JSON text, not binary.");
    const text = data.toString();
    let json: unknown;
    try {
      json = JSON.parse(text);
    } catch {
      return malformed("A frame is not JSON.");
    }
    const parsed = socketRequestSchema.safeParse(json);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      return malformed(`frame ${issue?.path.join(".") || "body"}: ${issue?.message ?? "invalid"}`);
    }
    const { id, path, body } = parsed.data;
    if (conn.inFlight.has(id)) return malformed(`frame id ${id} is already in use by a request not yet answered.`);
    if (conn.inFlight.size >= MAX_SOCKET_IN_FLIGHT) {
      conn.ws.close(SOCKET_CLOSE.tooManyInFlight, closeReason(`More than ${MAX_SOCKET_IN_FLIGHT} requests unanswered: wait for replies.`));
      return;
    }
    const abort = new AbortController();
    conn.inFlight.set(id, abort);
    void this.serve(conn, id, path, body, text, abort.signal).then((answer) => {
      conn.inFlight.delete(id);
      this.reply(conn, { id, status: answer.status, ...(answer.body === undefined ? {} : { body: answer.body }) });
    });
  }

  private async serve(conn: Connection, id: number, path: string, body: unknown, text: string, signal: AbortSignal): Promise<AgentAnswer> {
    const route = matchAgentPath(path.split("?")[0]!);
    if (!route) return { status: 404, body: { error: `No agent operation at ${path.slice(0, 100)}.` } };
    if (route.key === "register") return { status: 400, body: { error: "Register over HTTP (POST /api/agent/register): the socket is already signed in." } };
    try {
      refusePrototypeKeys(body, text);
    } catch (err) {
      return errorBody(err);
    }
    return serveAgentCall({ ...route, json: body, authorization: conn.authorization, headers: new Headers(conn.kept), signal, transport: "socket" });
  }

  private reply(conn: Connection, reply: SocketReply): void {
    if (conn.ws.readyState !== conn.ws.OPEN) return;
    conn.ws.send(JSON.stringify(reply));
    // The credential stopped opening the host (revoked, host deleted): as the HTTP agent stops on a 401.
    if (reply.status === 401) {
      const error = (reply.body as { error?: unknown } | undefined)?.error;
      conn.ws.close(SOCKET_CLOSE.revoked, closeReason(typeof error === "string" ? error : "The agent credential is not valid."));
    }
  }
}

/** Answers an upgrade with a plain HTTP error (the agent reads it as it reads an HTTP answer) and closes. */
function refuse(socket: Duplex, status: number, body: { error: string }): void {
  if (socket.destroyed) return;
  const json = JSON.stringify(body);
  socket.end(
    `HTTP/1.1 ${status} ${status === 400 ? "Bad Request" : status === 401 ? "Unauthorized" : status === 429 ? "Too Many Requests" : "Error"}\r\n` +
      `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${Buffer.byteLength(json)}\r\nConnection: close\r\n\r\n${json}`,
  );
}
