import http from "node:http";
import type { AddressInfo } from "node:net";
import { describe, expect, it } from "vitest";
import { createAppLog } from "../lib/log";
import { accessLogger, assignRequestId } from "./serve-requests";

/** A server with serve.ts's request plumbing in front of a handler, logging JSON into `lines`. */
async function withServer(env: Record<string, string>, handler: (req: http.IncomingMessage, res: http.ServerResponse) => void, fn: (url: string, lines: string[]) => Promise<void>) {
  const lines: string[] = [];
  const access = accessLogger(createAppLog({ format: env.LOG_FORMAT === "json" ? "json" : "text", level: (env.LOG_LEVEL as "info") ?? "info" }, { write: (l) => lines.push(l) }), env);
  const server = http.createServer((req, res) => {
    access(req, res, assignRequestId(req, res));
    handler(req, res);
  });
  await new Promise<void>((r) => server.listen(0, "127.0.0.1", r));
  try {
    await fn(`http://127.0.0.1:${(server.address() as AddressInfo).port}`, lines);
  } finally {
    server.closeAllConnections();
    await new Promise((r) => server.close(r));
  }
}

const echo = (req: http.IncomingMessage, res: http.ServerResponse) => {
  res.writeHead(req.url?.startsWith("/missing") ? 404 : 200, { "content-type": "text/plain" });
  res.end(String(req.headers["x-request-id"]));
};

describe("request ids", () => {
  it("keep a safe incoming X-Request-Id, replace anything else, and reach the handler and the answer", async () => {
    await withServer({ LOG_FORMAT: "json" }, echo, async (url) => {
      const kept = await fetch(`${url}/a`, { headers: { "x-request-id": "proxy-7f3a.1_B" } });
      expect(kept.headers.get("x-request-id")).toBe("proxy-7f3a.1_B");
      expect(await kept.text()).toBe("proxy-7f3a.1_B");
      for (const bad of ["has space", "x".repeat(101), "a/b", "a;b=c", "<script>", "line\\nbreak"]) {
        const r = await fetch(`${url}/a`, { headers: { "x-request-id": bad } });
        const id = r.headers.get("x-request-id")!;
        expect(id).toMatch(/^[0-9a-f-]{36}$/);
        expect(await r.text()).toBe(id);
      }
      const fresh = await fetch(`${url}/a`);
      expect(fresh.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);
    });
  });
});

describe("the access log", () => {
  it("writes one JSON line per request with method, path without query, status, duration and the request id", async () => {
    await withServer({ LOG_FORMAT: "json" }, echo, async (url, lines) => {
      const r = await fetch(`${url}/runs/abc?token=secret`, { headers: { "x-request-id": "req-1" } });
      await r.text();
      const m = await fetch(`${url}/missing`);
      const missingId = m.headers.get("x-request-id");
      await m.text();
      await expect.poll(() => lines.length).toBe(2);
      const [a, b] = lines.map((l) => JSON.parse(l) as Record<string, unknown>);
      expect(a).toMatchObject({ level: "info", method: "GET", path: "/runs/abc", status: 200, requestId: "req-1", pid: process.pid });
      expect(typeof a!.durationMs).toBe("number");
      expect(lines[0]).not.toContain("secret");
      expect(b).toMatchObject({ path: "/missing", status: 404, requestId: missingId });
    });
  });

  it("leaves out successful health checks, scrapes and agent requests at info, and keeps their failures", async () => {
    await withServer({ LOG_FORMAT: "json" }, (req, res) => {
      res.writeHead(req.url === "/api/health/ready" || req.url === "/api/agent/heartbeat" ? 503 : 200);
      res.end();
    }, async (url, lines) => {
      for (const p of ["/metrics", "/api/health", "/api/health/live", "/api/health/ready", "/api/healthy", "/api/agent/claim", "/api/agent/heartbeat"]) await (await fetch(url + p)).text();
      await expect.poll(() => lines.length).toBe(3);
      expect(lines.map((l) => (JSON.parse(l) as { path: string }).path).sort()).toEqual(["/api/agent/heartbeat", "/api/health/ready", "/api/healthy"]);
    });
  });

  it("writes nothing at info in text (as before), and a plain line at LOG_LEVEL=debug", async () => {
    await withServer({ LOG_FORMAT: "text" }, echo, async (url, lines) => {
      await (await fetch(`${url}/x`)).text();
      await new Promise((r) => setTimeout(r, 100));
      expect(lines).toEqual([]);
    });
    await withServer({ LOG_FORMAT: "text", LOG_LEVEL: "debug" }, echo, async (url, lines) => {
      await (await fetch(`${url}/x?q=1`, { headers: { "x-request-id": "r2" } })).text();
      await expect.poll(() => lines.length).toBe(1);
      expect(lines[0]).toMatch(/^\[probebook\] debug: GET \/x 200 [\d.]+ ms method=GET path=\/x status=200 durationMs=[\d.]+ requestId=r2\n$/);
    });
  });
});
