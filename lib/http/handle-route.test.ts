import { afterEach, describe, expect, it } from "vitest";
import { PEER_HEADER, peerHeaderValue } from "./client-address";
import { route } from "./handle-route";

const ok = route(async (_req: Request) => Response.json({ ok: true }));

function post(headers: Record<string, string>) {
  return new Request("http://internal:3000/api/runs", { method: "POST", headers, body: "{}" });
}

describe("CSRF origin check", () => {
  const saved = process.env.PUBLIC_URL;
  afterEach(() => {
    if (saved === undefined) delete process.env.PUBLIC_URL;
    else process.env.PUBLIC_URL = saved;
  });

  it("with PUBLIC_URL set, a forged X-Forwarded-Host matching a foreign Origin is refused", async () => {
    process.env.PUBLIC_URL = "https://probebook.example.com";
    const r = await ok(post({ origin: "http://evil", "x-forwarded-host": "evil", host: "evil", cookie: "probebook_session=x" }));
    expect(r.status).toBe(403);
  });

  it("with PUBLIC_URL set, its own origin passes whatever Host says", async () => {
    process.env.PUBLIC_URL = "https://probebook.example.com/";
    const r = await ok(post({ origin: "https://probebook.example.com", host: "10.0.0.5:3000" }));
    expect(r.status).toBe(200);
    const other = await ok(post({ origin: "http://probebook.example.com", host: "probebook.example.com" }));
    expect(other.status).toBe(403);
  });

  it("without PUBLIC_URL, Origin must match Host", async () => {
    delete process.env.PUBLIC_URL;
    expect((await ok(post({ origin: "http://a.example:3000", host: "a.example:3000" }))).status).toBe(200);
    expect((await ok(post({ origin: "http://evil", host: "a.example:3000" }))).status).toBe(403);
  });

  // Issue 27 item 13: X-Forwarded-Host is a proxy's word only when the peer is one of our proxies.
  describe("without PUBLIC_URL, X-Forwarded-Host", () => {
    const savedTrusted = process.env.TRUSTED_PROXIES;
    afterEach(() => {
      if (savedTrusted === undefined) delete process.env.TRUSTED_PROXIES;
      else process.env.TRUSTED_PROXIES = savedTrusted;
    });
    const peer = (ip: string) => ({ [PEER_HEADER]: peerHeaderValue(ip) });

    it("from an untrusted peer is ignored: Origin evil + X-Forwarded-Host evil is refused", async () => {
      delete process.env.PUBLIC_URL;
      delete process.env.TRUSTED_PROXIES;
      const forged = { origin: "http://evil", "x-forwarded-host": "evil", host: "probebook.lan:3000", cookie: "probebook_session=x" };
      expect((await ok(post({ ...forged, ...peer("203.0.113.9") }))).status).toBe(403);
      expect((await ok(post(forged))).status).toBe(403);
      // A forged peer header is no proxy either.
      expect((await ok(post({ ...forged, [PEER_HEADER]: "0 127.0.0.1" }))).status).toBe(403);
      // The host the request was addressed to still passes.
      expect((await ok(post({ ...forged, origin: "http://probebook.lan:3000", ...peer("203.0.113.9") }))).status).toBe(200);
    });

    it("from a trusted proxy names the host the browser addressed", async () => {
      delete process.env.PUBLIC_URL;
      process.env.TRUSTED_PROXIES = "10.0.0.0/8";
      const viaProxy = { "x-forwarded-host": "probebook.example.com", host: "10.0.0.5:3000", ...peer("10.0.0.2") };
      expect((await ok(post({ ...viaProxy, origin: "https://probebook.example.com" }))).status).toBe(200);
      expect((await ok(post({ ...viaProxy, origin: "http://evil" }))).status).toBe(403);
      // The proxy's own view, not the one the client put first: a client's X-Forwarded-Host is the proxy's to replace.
      expect((await ok(post({ ...viaProxy, "x-forwarded-host": "probebook.example.com, evil", origin: "https://probebook.example.com" }))).status).toBe(200);
    });
  });
});

describe("an unexpected error in a route", () => {
  it("answers a bare 500 naming the request id, and logs the error with that id", async () => {
    const { createAppLog } = await import("../log");
    const slot = Symbol.for("probebook.log");
    const g = globalThis as unknown as Record<symbol, unknown>;
    const saved = g[slot];
    const lines: string[] = [];
    g[slot] = createAppLog({ format: "json", level: "info" }, { write: (l) => lines.push(l) });
    try {
      const failing = route(async (_req: Request) => {
        throw new Error("relation \"secret_table\" is broken");
      });
      const r = await failing(new Request("http://internal:3000/api/runs", { headers: { "x-request-id": "req-42" } }));
      expect(r.status).toBe(500);
      const body = (await r.json()) as { error: string };
      expect(body.error).toBe("Internal error (request req-42): the server log has the details.");
      expect(body.error).not.toContain("secret_table");
      const line = JSON.parse(lines[0]!) as { level: string; msg: string; requestId: string; err: { message: string; stack: string } };
      expect(line).toMatchObject({ level: "error", msg: "unhandled error in route handler", requestId: "req-42" });
      expect(line.err.message).toContain("secret_table");
      expect(line.err.stack).toContain("handle-route.test.ts");
    } finally {
      g[slot] = saved;
    }
  });
});
