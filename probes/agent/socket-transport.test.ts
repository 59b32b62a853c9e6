import { createServer, type IncomingMessage, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import type { Duplex } from "node:stream";
import { afterEach, describe, expect, it } from "vitest";
import { WebSocketServer, type WebSocket } from "ws";
import { MAX_SOCKET_IN_FLIGHT, SOCKET_CLAIM_WAIT_SEC, SOCKET_CLOSE, pickAgentSocketProtocol, socketRequestSchema, type SocketRequest } from "../protocol/agent-socket";
import { AgentApi } from "./agent-api";
import { AgentHttpClient, type AgentTransport } from "./http-client";
import { failure } from "./testing/http-failure";
import { AgentSocket, SOCKET_RETRY_AFTER_UNSUPPORTED_MS, SocketUnsupported } from "./socket-transport";

const CREDENTIAL = "pba_socket-test-credential";
const fast = { baseMs: 5, capMs: 20 };

type Reply = (status: number, body?: unknown) => void;

/**
 * A small server speaking both ways of the agent protocol: POSTs to /api/agent/* and the socket's
 * frames. Each test sets `upgrade` (what the handshake gets) and `onFrame` (how a request frame
 * is answered; by default at once with `{path, body}` echoed).
 */
class SocketTestServer {
  url = "";
  credential = CREDENTIAL;
  upgrade: "accept" | "no-protocol" | number = "accept";
  onFrame: (req: SocketRequest, reply: Reply, ws: WebSocket, connection: number) => void = (req, reply) => reply(200, { path: req.path, body: req.body });
  readonly posts: { path: string; body: unknown }[] = [];
  readonly frames: SocketRequest[] = [];
  readonly authorizations: (string | undefined)[] = [];
  readonly upgrades: number[] = [];
  readonly closes: { code: number; reason: string }[] = [];
  connections = 0;
  /** Most requests unanswered at once on one connection. */
  maxOutstanding = 0;
  private readonly http: Server;
  private readonly wss = new WebSocketServer({ noServer: true, handleProtocols: (offered) => pickAgentSocketProtocol(offered) ?? false });

  constructor() {
    this.http = createServer((req, res) => {
      let raw = "";
      req.on("data", (d: Buffer) => (raw += d.toString()));
      req.on("end", () => {
        this.posts.push({ path: req.url ?? "", body: JSON.parse(raw) as unknown });
        const ok = req.headers.authorization === `Bearer ${this.credential}` || req.url === "/api/agent/register";
        res.writeHead(ok ? 200 : 401, { "content-type": "application/json" });
        res.end(JSON.stringify(ok ? { path: req.url, body: JSON.parse(raw) as unknown, via: "http" } : { error: "credential revoked" }));
      });
    });
    this.http.on("upgrade", (req: IncomingMessage, socket: Duplex, head: Buffer) => this.onUpgrade(req, socket, head));
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.http.listen(0, "127.0.0.1", resolve));
    this.url = `http://127.0.0.1:${(this.http.address() as AddressInfo).port}`;
    return this;
  }

  async close(): Promise<void> {
    for (const ws of this.wss.clients) ws.terminate();
    this.http.closeAllConnections();
    await new Promise<void>((resolve) => this.http.close(() => resolve()));
  }

  async waitForClose(): Promise<void> {
    const end = Date.now() + 5_000;
    while (this.closes.length === 0) {
      if (Date.now() > end) throw new Error("no close arrived");
      await new Promise((r) => setTimeout(r, 10));
    }
  }

  private onUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer): void {
    const status = typeof this.upgrade === "number" ? this.upgrade : req.headers.authorization === `Bearer ${this.credential}` ? 0 : 401;
    this.upgrades.push(status || 101);
    this.authorizations.push(req.headers.authorization);
    if (status) {
      const body = JSON.stringify({ error: status === 401 ? "credential revoked" : "no agent socket here" });
      socket.end(`HTTP/1.1 ${status} No\r\ncontent-type: application/json\r\ncontent-length: ${body.length}\r\nconnection: close\r\n\r\n${body}`);
      return;
    }
    if (this.upgrade === "no-protocol") delete req.headers["sec-websocket-protocol"];
    this.wss.handleUpgrade(req, socket, head, (ws) => {
      const connection = ++this.connections;
      let outstanding = 0;
      ws.on("close", (code, reason) => this.closes.push({ code, reason: reason.toString() }));
      ws.on("message", (data) => {
        const req = socketRequestSchema.parse(JSON.parse(data.toString()));
        this.frames.push(req);
        outstanding++;
        this.maxOutstanding = Math.max(this.maxOutstanding, outstanding);
        if (outstanding > MAX_SOCKET_IN_FLIGHT) ws.close(SOCKET_CLOSE.tooManyInFlight, "too many requests in flight");
        let replied = false;
        const reply: Reply = (status, body) => {
          if (replied) return;
          replied = true;
          outstanding--;
          ws.send(JSON.stringify(body === undefined ? { id: req.id, status } : { id: req.id, status, body }));
        };
        this.onFrame(req, reply, ws, connection);
      });
    });
  }
}

let server: SocketTestServer;
let client: AgentHttpClient | null = null;
afterEach(async () => {
  client?.close();
  client = null;
  await server.close();
});

async function start(transport: AgentTransport = "auto", onTransport?: (t: "socket" | "http") => void): Promise<AgentHttpClient> {
  server = await new SocketTestServer().start();
  client = new AgentHttpClient({ server: server.url, credential: CREDENTIAL, transport, backoff: fast, onTransport });
  return client;
}


describe("AgentSocket through AgentHttpClient", () => {
  it("an upgrade left hanging (a server or proxy that does not take upgrades) falls back to HTTP in auto mode", async () => {
    server = await new SocketTestServer().start();
    // Another server on another port: answers POSTs, never answers an upgrade.
    const hanging = createServer((req, res) => {
      req.resume();
      req.on("end", () => res.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify({ via: "http" })));
    });
    const held: Duplex[] = [];
    hanging.on("upgrade", (_req: IncomingMessage, socket: Duplex) => void held.push(socket));
    await new Promise<void>((resolve) => hanging.listen(0, "127.0.0.1", resolve));
    try {
      const c = new AgentHttpClient({ server: `http://127.0.0.1:${(hanging.address() as AddressInfo).port}`, credential: CREDENTIAL, backoff: fast, socketHandshakeTimeoutMs: 300 });
      expect((await c.post("/api/agent/heartbeat", {})).body).toEqual({ via: "http" });
      expect(c.transportInUse()).toBe("http");
      c.close();
    } finally {
      for (const s of held) s.destroy();
      hanging.closeAllConnections();
      await new Promise((r) => hanging.close(r));
    }
  });

  it("matches replies to requests by id, whatever their order, numbering requests from 1", async () => {
    const seen: string[] = [];
    const c = await start("auto", (t) => seen.push(t));
    const held: { req: SocketRequest; reply: Reply }[] = [];
    server.onFrame = (req, reply) => {
      held.push({ req, reply });
      if (held.length < 3) return;
      for (const h of held.reverse()) h.reply(200, { path: h.req.path, id: h.req.id, n: (h.req.body as { n: number }).n });
    };
    const answers = await Promise.all([1, 2, 3].map((n) => c.post(`/api/agent/runs/r${n}/chunks`, { n })));
    expect(answers.map((a) => a.body)).toEqual([1, 2, 3].map((n) => ({ path: `/api/agent/runs/r${n}/chunks`, id: n, n })));
    expect(server.posts).toEqual([]);
    expect(c.transportInUse()).toBe("socket");
    expect(seen).toEqual(["socket"]);
  });

  it("hands back the route's status: 204 without a body, 409 as a client error, 503 as retryable", async () => {
    const c = await start();
    server.onFrame = (req, reply) => (req.path.endsWith("claim") ? reply(204) : req.path.endsWith("finish") ? reply(409, { error: "chunks missing" }) : reply(503, { error: "maintenance" }));
    expect(await c.post("/api/agent/jobs/claim", { waitSec: 1 })).toEqual({ status: 204, body: null });
    const conflict = await failure(c.post("/api/agent/runs/x/finish", {}));
    expect([conflict.kind, conflict.status, conflict.message]).toEqual(["client", 409, "chunks missing"]);
    const busy = await failure(c.post("/api/agent/heartbeat", {}));
    expect([busy.kind, busy.retryable]).toEqual(["server", true]);
  });

  it("fails a request that gets no answer in time as a network error, and the socket stays usable", async () => {
    const c = await start();
    server.onFrame = (req, reply) => {
      if (req.path !== "/api/agent/slow") reply(200, { ok: true });
    };
    const err = await failure(c.post("/api/agent/slow", {}, { timeoutMs: 150 }));
    expect([err.kind, err.message]).toEqual(["network", expect.stringContaining("request timed out")]);
    expect((await c.post("/api/agent/heartbeat", {})).body).toEqual({ ok: true });
    expect(server.connections).toBe(1);
  });

  it("rejects at once with the signal's reason when aborted", async () => {
    const c = await start();
    server.onFrame = () => undefined;
    const stop = new AbortController();
    const pending = c.post("/api/agent/jobs/claim", { waitSec: 900 }, { signal: stop.signal });
    setTimeout(() => stop.abort(new Error("agent stopping")), 50);
    await expect(pending).rejects.toThrow("agent stopping");
  });

  it("reconnects after the server closes the socket: the pending request is retried and answered", async () => {
    const c = await start();
    server.onFrame = (req, reply, ws, connection) => (connection === 1 ? ws.close(1001, "restarting") : reply(200, { connection }));
    const res = await c.postWithRetry("/api/agent/jobs/claim", { waitSec: 900 });
    expect(res.body).toEqual({ connection: 2 });
    expect(server.connections).toBe(2);
    expect(server.posts).toEqual([]);
  });

  it("close 4401 is a revoked credential: the request fails as revoked, later ones ask HTTP until a new credential is set", async () => {
    const c = await start();
    server.onFrame = (req, reply, ws) => (server.credential === CREDENTIAL ? ws.close(SOCKET_CLOSE.revoked, "host deleted") : reply(200, { ok: true }));
    const err = await failure(c.postWithRetry("/api/agent/heartbeat", {}));
    expect([err.kind, err.status, err.message]).toEqual(["revoked", 401, "host deleted"]);
    // The server's route answers from now on (a revoked agent's final report may still be taken there).
    server.credential = "pba_after-revocation";
    const again = await failure(c.post("/api/agent/heartbeat", {}));
    expect([again.kind, again.message]).toEqual(["revoked", "credential revoked"]);
    expect(server.posts.map((p) => p.path)).toEqual(["/api/agent/heartbeat"]);
    expect(server.connections).toBe(1);
    server.credential = "pba_new-credential";
    c.setCredential("pba_new-credential");
    expect((await c.post("/api/agent/heartbeat", {})).body).toEqual({ ok: true });
    expect(server.connections).toBe(2);
  });

  it("a new credential set while connecting: the request goes on a connection made with it", async () => {
    const c = await start();
    server.onFrame = (req, reply) => reply(200, { ok: true });
    const pending = c.post("/api/agent/heartbeat", {});
    // The old credential's upgrade is on its way and will be refused (401): not a revoke of the new one.
    server.credential = "pba_newer";
    c.setCredential("pba_newer");
    expect((await pending).body).toEqual({ ok: true });
    expect(server.authorizations).toEqual([`Bearer ${CREDENTIAL}`, "Bearer pba_newer"]);
    expect(server.upgrades).toEqual([401, 101]);
    expect(server.frames).toHaveLength(1);
  });

  it("an upgrade answered 401 is a revoked credential too", async () => {
    const c = await start();
    server.credential = "pba_someone-else";
    const err = await failure(c.post("/api/agent/heartbeat", {}));
    expect([err.kind, err.status, err.message]).toEqual(["revoked", 401, "credential revoked"]);
  });

  it("falls back to HTTP when the upgrade is answered 404, and leaves the socket alone for a while", async () => {
    const seen: string[] = [];
    const c = await start("auto", (t) => seen.push(t));
    server.upgrade = 404;
    expect((await c.post("/api/agent/heartbeat", { runningRunIds: [] })).body).toEqual({ path: "/api/agent/heartbeat", body: { runningRunIds: [] }, via: "http" });
    expect(c.transportInUse()).toBe("http");
    await c.post("/api/agent/heartbeat", { runningRunIds: [] });
    expect(server.upgrades).toEqual([404]);
    expect(server.posts.map((p) => p.path)).toEqual(["/api/agent/heartbeat", "/api/agent/heartbeat"]);
    expect(seen).toEqual(["http"]);
  });

  it("falls back to HTTP when the server picks none of the offered protocol versions", async () => {
    const c = await start();
    server.upgrade = "no-protocol";
    expect((await c.post("/api/agent/heartbeat", {})).body).toMatchObject({ via: "http" });
    expect(c.transportInUse()).toBe("http");
  });

  it("with transport socket, a server without the socket is retried (never a refusal that sets output aside), naming --transport http", async () => {
    const c = await start("socket");
    server.upgrade = 404;
    const err = await failure(c.post("/api/agent/heartbeat", {}));
    expect(err.kind).toBe("network");
    expect(err.retryable).toBe(true);
    expect(err.message).toMatch(/does not answer on the agent socket.*--transport http/);
    // Once the server takes the socket, the next attempt gets through: nothing was given up.
    server.upgrade = "accept";
    server.onFrame = (req, reply) => reply(200, { ok: true });
    expect((await c.postWithRetry("/api/agent/heartbeat", {})).body).toEqual({ ok: true });
    expect(server.posts).toEqual([]);
  });

  it("register goes over HTTP even when the socket is in use", async () => {
    const c = await start();
    await c.post("/api/agent/heartbeat", {});
    await c.post("/api/agent/register", { registrationToken: "t" }, { auth: false });
    expect(server.posts.map((p) => p.path)).toEqual(["/api/agent/register"]);
    expect(c.transportInUse()).toBe("socket");
  });

  it(`queues requests beyond ${MAX_SOCKET_IN_FLIGHT} in flight instead of refusing them`, async () => {
    const c = await start();
    server.onFrame = (req, reply) => setTimeout(() => reply(200, req.body), 30);
    const answers = await Promise.all(Array.from({ length: 40 }, (_, n) => c.post("/api/agent/heartbeat", { n })));
    expect(answers.map((a) => a.body)).toEqual(Array.from({ length: 40 }, (_, n) => ({ n })));
    expect(server.maxOutstanding).toBe(MAX_SOCKET_IN_FLIGHT);
    expect(server.closes).toEqual([]);
  });

  it("closes the connection with 4400 on a malformed reply; the request fails as network and its retry succeeds", async () => {
    const c = await start();
    server.onFrame = (req, reply, ws, connection) => (connection === 1 ? ws.send(JSON.stringify({ id: req.id, status: "ok" })) : reply(200, { connection }));
    const err = await failure(c.post("/api/agent/heartbeat", {}));
    expect(err.kind).toBe("network");
    await server.waitForClose();
    expect(server.closes[0]).toEqual({ code: SOCKET_CLOSE.malformed, reason: "malformed reply: status: Invalid input: expected number, received string" });
    expect((await c.postWithRetry("/api/agent/heartbeat", {})).body).toEqual({ connection: 2 });
  });

  it("claims over the socket wait SOCKET_CLAIM_WAIT_SEC", async () => {
    const c = await start();
    const api = new AgentApi(c);
    const waits: unknown[] = [];
    server.onFrame = (req, reply) => {
      if (req.path === "/api/agent/jobs/claim") waits.push(req.body);
      reply(req.path === "/api/agent/jobs/claim" ? 204 : 200, req.path === "/api/agent/heartbeat" ? { cancelRunIds: [] } : undefined);
    };
    await api.heartbeat({ runningRunIds: [] });
    expect(await api.claim(50)).toBeNull();
    expect(waits).toEqual([{ waitSec: SOCKET_CLAIM_WAIT_SEC }]);
  });

  it("tries the socket again 10 minutes after a server said it has none", async () => {
    server = await new SocketTestServer().start();
    server.upgrade = 404;
    let now = 1_000_000;
    const socket = new AgentSocket({ server: server.url, credential: CREDENTIAL, now: () => now });
    try {
      await expect(socket.request("/api/agent/heartbeat", "{}", { timeoutMs: 1000 })).rejects.toBeInstanceOf(SocketUnsupported);
      now += SOCKET_RETRY_AFTER_UNSUPPORTED_MS - 1;
      expect(socket.available()).toBe(false);
      now += 1;
      server.upgrade = "accept";
      expect(await socket.request("/api/agent/heartbeat", '{"a":1}', { timeoutMs: 1000 })).toEqual({
        status: 200,
        statusText: "OK",
        text: JSON.stringify({ path: "/api/agent/heartbeat", body: { a: 1 } }),
      });
      expect(server.upgrades).toEqual([404, 101]);
    } finally {
      socket.close();
    }
  });

  it("keeps a timed-out request's slot until the server answers it, and reconnects when such slots starve the queue", async () => {
    server = await new SocketTestServer().start();
    const late: Reply[] = [];
    server.onFrame = (req, reply) => (req.path === "/api/agent/slow" ? late.push(reply) : reply(200, { ok: true }));
    const socket = new AgentSocket({ server: server.url, credential: CREDENTIAL, maxInFlight: 1 });
    try {
      await expect(socket.request("/api/agent/slow", "{}", { timeoutMs: 100 })).rejects.toThrow(/no answer within 100 ms/);
      const queued = socket.request("/api/agent/heartbeat", "{}", { timeoutMs: 5000 });
      await new Promise((r) => setTimeout(r, 100));
      expect(server.frames.map((f) => f.path)).toEqual(["/api/agent/slow"]);
      late[0]!(204);
      expect((await queued).status).toBe(200);
      expect(server.maxOutstanding).toBe(1);

      await expect(socket.request("/api/agent/slow", "{}", { timeoutMs: 50 })).rejects.toThrow(/no answer within/);
      await expect(socket.request("/api/agent/heartbeat", "{}", { timeoutMs: 100 })).rejects.toThrow(/no answer within/);
      await server.waitForClose();
      expect(server.closes).toEqual([{ code: 1000, reason: "requests left unanswered" }]);
      expect((await socket.request("/api/agent/heartbeat", "{}", { timeoutMs: 5000 })).status).toBe(200);
      expect(server.connections).toBe(2);
    } finally {
      socket.close();
    }
  });
});
