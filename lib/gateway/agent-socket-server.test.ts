import crypto from "node:crypto";
import http from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import WebSocket from "ws";
import { generateSecret, hashSecret } from "../auth/secret-token";
import { db } from "../db";
import { notifyHost } from "../instance/notify";
import { connectTestDatabase } from "../testing/db";
import { AGENT_SOCKET_PATH, AGENT_SOCKET_PROTOCOLS, MAX_SOCKET_IN_FLIGHT, SOCKET_CLOSE } from "../../probes/protocol/agent-socket";
import { seededRandom } from "../seeded-random";
import { agentApi } from "../api/agent";
import { createGateway } from "./gateway";

connectTestDatabase();

// The gateway in front of a stand-in for Next.js (404 for anything it does not take), on a real
// socket and a real database: what scripts/serve.ts runs, minus the pages.
let server: http.Server;
let base: string;
let gateway: ReturnType<typeof createGateway>;
beforeAll(async () => {
  gateway = createGateway();
  server = http.createServer((req, res) => {
    if (gateway.handleRequest(req, res)) return;
    res.writeHead(404).end("not the gateway's");
  });
  server.on("upgrade", (req, socket, head) => {
    if (!gateway.handleUpgrade(req, socket, head)) socket.destroy();
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  base = `127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  gateway.close();
  server.closeAllConnections();
  await new Promise((r) => server.close(r));
});

async function agentHost() {
  const credential = generateSecret("pba");
  const host = await db().host.create({ data: { name: `sock-${crypto.randomUUID().slice(0, 8)}`, agentCredentialHash: hashSecret(credential) } });
  return { host, credential };
}

/** An open agent socket with request/reply by id, and its close code and reason once closed. */
async function connect(credential: string, protocols: string[] = [...AGENT_SOCKET_PROTOCOLS]) {
  const ws = new WebSocket(`ws://${base}${AGENT_SOCKET_PATH}`, protocols, { headers: { authorization: `Bearer ${credential}` } });
  const replies = new Map<number, (r: { status: number; body?: unknown }) => void>();
  ws.on("message", (d) => {
    const r = JSON.parse(d.toString()) as { id: number; status: number; body?: unknown };
    replies.get(r.id)?.(r);
  });
  const closed = new Promise<{ code: number; reason: string }>((resolve) => ws.on("close", (code, reason) => resolve({ code, reason: reason.toString() })));
  await new Promise<void>((resolve, reject) => {
    ws.once("open", () => resolve());
    ws.once("error", reject);
  });
  let next = 1;
  const request = (path: string, body: unknown) => {
    const id = next++;
    const answer = new Promise<{ status: number; body?: unknown }>((resolve) => replies.set(id, resolve));
    ws.send(JSON.stringify({ id, path, body }));
    return answer;
  };
  return { ws, request, closed };
}

/** What an upgrade is answered with when it is refused: its HTTP status and JSON error. */
function refusal(credential: string, protocols: string[]): Promise<{ status: number; error: string }> {
  const ws = new WebSocket(`ws://${base}${AGENT_SOCKET_PATH}`, protocols, { headers: { authorization: `Bearer ${credential}` } });
  return new Promise((resolve, reject) => {
    ws.on("open", () => reject(new Error("the upgrade was accepted")));
    ws.on("error", () => undefined);
    ws.on("unexpected-response", (_req, res) => {
      let text = "";
      res.on("data", (d: Buffer) => (text += d.toString()));
      res.on("end", () => resolve({ status: res.statusCode ?? 0, error: (JSON.parse(text) as { error: string }).error }));
    });
  });
}

const queue = (hostId: string) => db().probeRun.create({ data: { hostId, probe: "dd", params: { sizeMiB: 1 } } });

describe("the agent socket", () => {
  it("pushes a job to a claim that waits longer than any HTTP long-poll, the moment it is queued", async () => {
    const { host, credential } = await agentHost();
    const { request, ws } = await connect(credential);
    const claim = request("/api/agent/jobs/claim", { waitSec: 900 });
    await new Promise((r) => setTimeout(r, 300));
    const run = await queue(host.id);
    const queuedAt = Date.now();
    await notifyHost(host.id);
    const answer = await claim;
    expect(answer).toMatchObject({ status: 200, body: { runId: run.id, probe: "dd" } });
    expect(Date.now() - queuedAt).toBeLessThan(1000);
    ws.close();
  });

  it("stores chunks with the HTTP route's answers, idempotent per seq, and answers a run of another host 403", async () => {
    const { host, credential } = await agentHost();
    const other = await agentHost();
    const run = await queue(host.id);
    const { request, ws } = await connect(credential);
    expect(await request("/api/agent/jobs/claim", { waitSec: 0 })).toMatchObject({ status: 200, body: { runId: run.id } });
    const chunks = { chunks: [{ seq: 0, data: "hello\n" }, { seq: 1, data: "world\n" }] };
    expect(await request(`/api/agent/runs/${run.id}/chunks`, chunks)).toMatchObject({ status: 200, body: { stored: 2, duplicates: 0, cancelRequested: false } });
    expect(await request(`/api/agent/runs/${run.id}/chunks`, chunks)).toMatchObject({ status: 200, body: { stored: 0, duplicates: 2, cancelRequested: false } });
    expect(await db().runLogChunk.count({ where: { runId: run.id } })).toBe(2);
    const foreign = await queue(other.host.id);
    expect(await request(`/api/agent/runs/${foreign.id}/chunks`, chunks)).toMatchObject({ status: 403 });
    ws.close();
  });

  it("answers a body that fails its schema like the route (400 naming the field), and keeps the socket open", async () => {
    const { credential } = await agentHost();
    const { request, ws } = await connect(credential);
    const bad = await request("/api/agent/jobs/claim", { waitSec: "soon" });
    expect(bad).toMatchObject({ status: 400, body: { fieldErrors: { waitSec: expect.any(Array) } } });
    expect(await request("/api/agent/nowhere", {})).toMatchObject({ status: 404 });
    expect(await request("/api/agent/register", {})).toMatchObject({ status: 400, body: { error: expect.stringMatching(/Register over HTTP/) } });
    expect(await request("/api/agent/heartbeat", { runningRunIds: [], __proto__x: 1, nested: JSON.parse('{"__proto__": {}}') })).toMatchObject({ status: 400 });
    expect(ws.readyState).toBe(WebSocket.OPEN);
    ws.close();
  });

  it("closes on a malformed frame with a reason naming what is wrong", async () => {
    const { credential } = await agentHost();
    const notJson = await connect(credential);
    notJson.ws.send("{not json");
    expect(await notJson.closed).toEqual({ code: SOCKET_CLOSE.malformed, reason: "A frame is not JSON." });
    const noId = await connect(credential);
    noId.ws.send(JSON.stringify({ path: "/api/agent/heartbeat", body: {} }));
    expect(await noId.closed).toMatchObject({ code: SOCKET_CLOSE.malformed, reason: expect.stringMatching(/^frame id: /) });
    const binary = await connect(credential);
    binary.ws.send(Buffer.from([1, 2, 3]), { binary: true });
    expect(await binary.closed).toMatchObject({ code: SOCKET_CLOSE.malformed, reason: expect.stringMatching(/JSON text, not binary/) });
  });

  it("answers garbage bodies on every operation with a 4xx naming the problem, never a 5xx", async () => {
    const { host, credential } = await agentHost();
    const run = await queue(host.id);
    const { request, ws } = await connect(credential);
    const random = seededRandom(28);
    const pick = <T,>(xs: readonly T[]): T => xs[Math.floor(random() * xs.length)]!;
    const values: unknown[] = [null, true, -1, 1e308, "", "x".repeat(300), [], {}, [{}], { seq: -1 }, "\u0000", { waitSec: 1e9 }, { chunks: [{ seq: 0, data: 5 }] }];
    const bodyOf = (): unknown => {
      if (random() < 0.3) return pick(values);
      const o: Record<string, unknown> = {};
      for (let i = 0; i < 1 + Math.floor(random() * 4); i++) o[pick(["waitSec", "chunks", "runningRunIds", "lastSeq", "exitCode", "day", "output", "profile", "x"])] = pick(values);
      return o;
    };
    const paths = Object.values(agentApi).map((op) => op.path.replace("{id}", pick([run.id, "not-a-uuid", "%ff", crypto.randomUUID()])));
    for (let i = 0; i < 150; i++) {
      const path = pick(paths);
      let body = bodyOf();
      // A claim that happens to be valid would wait for a job: ask it not to.
      if (path === agentApi.claim.path && typeof body === "object" && body !== null && !Array.isArray(body) && !("waitSec" in body)) body = { ...body, waitSec: 0 };
      const answer = await request(path, body);
      expect(answer.status, `${path}`).toBeGreaterThanOrEqual(200);
      expect(answer.status, `${path} ${JSON.stringify(answer.body)}`).toBeLessThan(500);
      if (answer.status >= 400) expect((answer.body as { error?: unknown }).error).toEqual(expect.any(String));
    }
    expect(ws.readyState).toBe(WebSocket.OPEN);
    ws.close();
  });

  it(`closes a socket with more than ${MAX_SOCKET_IN_FLIGHT} requests unanswered`, async () => {
    const { credential } = await agentHost();
    const { ws, closed } = await connect(credential);
    // Claims that wait: none is answered while the next ones arrive.
    for (let id = 1; id <= MAX_SOCKET_IN_FLIGHT + 1; id++) ws.send(JSON.stringify({ id, path: "/api/agent/jobs/claim", body: { waitSec: 900 } }));
    expect(await closed).toMatchObject({ code: SOCKET_CLOSE.tooManyInFlight });
  });

  it("closes a revoked agent's socket within a second, mid-claim or idle", async () => {
    const waiting = await agentHost();
    const idle = await agentHost();
    const a = await connect(waiting.credential);
    const b = await connect(idle.credential);
    void a.request("/api/agent/jobs/claim", { waitSec: 900 });
    await new Promise((r) => setTimeout(r, 200));
    const t0 = Date.now();
    for (const h of [waiting, idle]) {
      await db().host.update({ where: { id: h.host.id }, data: { agentCredentialHash: hashSecret(generateSecret("pba")) } });
      await notifyHost(h.host.id);
    }
    const [ca, cb] = await Promise.all([a.closed, b.closed]);
    expect(ca.code).toBe(SOCKET_CLOSE.revoked);
    expect(cb).toMatchObject({ code: SOCKET_CLOSE.revoked, reason: expect.stringMatching(/revoked/) });
    expect(Date.now() - t0).toBeLessThan(1000);
  });

  it("refuses an upgrade without a credential a host holds (401) or without a protocol version in common (400)", async () => {
    const { credential } = await agentHost();
    expect(await refusal(generateSecret("pba"), [...AGENT_SOCKET_PROTOCOLS])).toMatchObject({ status: 401 });
    const old = await refusal(credential, ["probebook-agent.0"]);
    expect(old.status).toBe(400);
    expect(old.error).toContain(AGENT_SOCKET_PROTOCOLS.join(", "));
    expect(old.error).toContain("probebook-agent.0");
  });
});

describe("the agent routes over HTTP, served by the gateway", () => {
  it("answers a chunk upload as the route does, and leaves other paths to Next.js", async () => {
    const { host, credential } = await agentHost();
    const run = await queue(host.id);
    const post = (path: string, body: unknown, auth = credential) =>
      fetch(`http://${base}${path}`, { method: "POST", headers: { authorization: `Bearer ${auth}`, "content-type": "application/json" }, body: JSON.stringify(body) });
    const claim = await post("/api/agent/jobs/claim", { waitSec: 0 });
    expect(claim.status).toBe(200);
    expect(claim.headers.get("cache-control")).toBe("no-store, no-transform");
    expect(claim.headers.get("content-security-policy")).toMatch(/default-src 'none'/);
    const up = await post(`/api/agent/runs/${run.id}/chunks`, { chunks: [{ seq: 0, data: "x" }] });
    expect(await up.json()).toEqual({ stored: 1, duplicates: 0, cancelRequested: false });
    expect((await post(`/api/agent/runs/%ff%fe/chunks`, { chunks: [] })).status).toBe(400);
    expect((await post(`/api/agent/runs/${run.id}/chunks`, { chunks: [{ seq: 1, data: "y" }] }, generateSecret("pba"))).status).toBe(401);
    // Register and every other path are Next.js's.
    expect(await (await post("/api/agent/register", {})).text()).toBe("not the gateway's");
    expect((await fetch(`http://${base}/api/agent/jobs/claim`)).status).toBe(404);
  });
});
