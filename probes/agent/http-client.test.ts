import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { backoffDelay, sleep } from "./backoff";
import { AgentHttpClient } from "./http-client";
import { failure } from "./testing/http-failure";
import { FakeAgentServer } from "./testing/fake-server";

const fast = { baseMs: 1, capMs: 5 };
let server: FakeAgentServer;
beforeAll(async () => {
  server = await new FakeAgentServer().start();
});
afterAll(() => server.close());


describe("backoffDelay", () => {
  it("doubles from the base with equal jitter and stops at the cap", () => {
    const p = { baseMs: 200, capMs: 10_000 };
    expect(backoffDelay(0, p, () => 0)).toBe(100);
    expect(backoffDelay(0, p, () => 1)).toBe(200);
    expect(backoffDelay(3, p, () => 1)).toBe(1600);
    expect(backoffDelay(3, p, () => 0)).toBe(800);
    expect(backoffDelay(10, p, () => 1)).toBe(10_000);
    expect(backoffDelay(1000, p, () => 0.5)).toBe(7500);
    for (let i = 0; i < 100; i++) {
      const d = backoffDelay(i % 12, p);
      expect(d).toBeGreaterThanOrEqual(100);
      expect(d).toBeLessThanOrEqual(10_000);
    }
  });

  it("sleep ends early on abort", async () => {
    const ac = new AbortController();
    const t0 = Date.now();
    setTimeout(() => ac.abort(), 20);
    await sleep(5000, ac.signal);
    expect(Date.now() - t0).toBeLessThan(1000);
  });
});

describe("AgentHttpClient", () => {
  it("posts JSON with the bearer credential", async () => {
    const http = new AgentHttpClient({ server: `${server.url}/`, credential: server.credential });
    const res = await http.post("/api/agent/heartbeat", { runningRunIds: [] });
    expect(res).toEqual({ status: 200, body: { cancelRunIds: [] } });
  });

  it("classifies 401 as revoked, 400 as a client error with the server's message, 503 as retryable", async () => {
    const bad = new AgentHttpClient({ server: server.url, credential: "wrong" });
    const revoked = await failure(bad.post("/api/agent/heartbeat", { runningRunIds: [] }));
    expect(revoked).toMatchObject({ kind: "revoked", status: 401, message: "credential revoked", retryable: false });

    const http = new AgentHttpClient({ server: server.url, credential: server.credential });
    const client = await failure(http.post("/api/agent/heartbeat", { runningRunIds: ["not-a-uuid"] }));
    expect(client.kind).toBe("client");
    expect(client.status).toBe(400);
    expect(client.message).toMatch(/runningRunIds/);

    server.failNext = 1;
    const unavailable = await failure(http.post("/api/agent/heartbeat", { runningRunIds: [] }));
    expect(unavailable).toMatchObject({ kind: "server", status: 503, retryable: true });
  });

  it("reports an unreachable server as a network error", async () => {
    const probe = createServer();
    await new Promise<void>((r) => probe.listen(0, "127.0.0.1", r));
    const port = (probe.address() as AddressInfo).port;
    await new Promise<void>((r) => probe.close(() => r()));
    const http = new AgentHttpClient({ server: `http://127.0.0.1:${port}` });
    const err = await failure(http.post("/x", {}));
    expect(err).toMatchObject({ kind: "network", status: null, retryable: true });
    expect(err.message).toMatch(/ECONNREFUSED/);
  });

  it("times out a server that never answers", async () => {
    const silent = createServer(() => undefined);
    await new Promise<void>((r) => silent.listen(0, "127.0.0.1", r));
    try {
      const http = new AgentHttpClient({ server: `http://127.0.0.1:${(silent.address() as AddressInfo).port}`, timeoutMs: 100 });
      const err = await failure(http.post("/x", {}));
      expect(err).toMatchObject({ kind: "network", message: expect.stringMatching(/timed out/) });
    } finally {
      silent.closeAllConnections();
      silent.close();
    }
  });

  it("treats a non-JSON 200 (a proxy's page) as a server error", async () => {
    const html = createServer((_req, res) => res.end("<html>maintenance</html>"));
    await new Promise<void>((r) => html.listen(0, "127.0.0.1", r));
    try {
      const http = new AgentHttpClient({ server: `http://127.0.0.1:${(html.address() as AddressInfo).port}` });
      expect(await failure(http.post("/x", {}))).toMatchObject({ kind: "server", status: 200 });
    } finally {
      html.close();
    }
  });

  it("retries 5xx with backoff until the server answers", async () => {
    const delays: number[] = [];
    const http = new AgentHttpClient({
      server: server.url,
      credential: server.credential,
      backoff: fast,
      onRetry: (_e, attempt, delay) => delays.push(attempt, delay),
    });
    server.failNext = 3;
    const res = await http.postWithRetry("/api/agent/heartbeat", { runningRunIds: [] });
    expect(res.status).toBe(200);
    expect(delays.filter((_, i) => i % 2 === 0)).toEqual([1, 2, 3]);
  });

  it("does not retry client errors and gives up after maxAttempts", async () => {
    // HTTP only: the count is of POSTs (auto would add the socket's upgrade attempt).
    const http = new AgentHttpClient({ server: server.url, credential: server.credential, backoff: fast, transport: "http" });
    const before = server.log.length;
    await failure(http.postWithRetry("/api/agent/heartbeat", { runningRunIds: [1] }));
    expect(server.log.length - before).toBe(1);
    server.down = true;
    try {
      expect(await failure(http.postWithRetry("/api/agent/heartbeat", { runningRunIds: [] }, { maxAttempts: 4 }))).toMatchObject({ status: 503 });
      expect(server.log.length - before).toBe(5);
    } finally {
      server.down = false;
    }
  });

  it("stops retrying when aborted", async () => {
    const http = new AgentHttpClient({ server: server.url, credential: server.credential, backoff: { baseMs: 50, capMs: 50 } });
    const ac = new AbortController();
    server.down = true;
    try {
      setTimeout(() => ac.abort(new Error("stopping")), 120);
      await expect(http.postWithRetry("/api/agent/heartbeat", { runningRunIds: [] }, { signal: ac.signal })).rejects.toThrow("stopping");
    } finally {
      server.down = false;
    }
  });
});
