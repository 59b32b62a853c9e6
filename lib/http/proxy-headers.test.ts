import { NextRequest } from "next/server";
import { afterEach, describe, expect, it } from "vitest";
import { proxy } from "../../proxy";

describe("page security headers (proxy.ts)", async () => {
  const saved = process.env.COOKIE_SECURE;
  afterEach(() => {
    if (saved === undefined) delete process.env.COOKIE_SECURE;
    else process.env.COOKIE_SECURE = saved;
  });

  it("a fresh script nonce per request, no 'unsafe-inline' for scripts, and the nonce handed to the renderer", async () => {
    const a = await proxy(new NextRequest("http://localhost/guides"));
    const b = await proxy(new NextRequest("http://localhost/guides"));
    const csp = a.headers.get("content-security-policy")!;
    const scriptSrc = csp.split("; ").find((d) => d.startsWith("script-src"))!;
    expect(scriptSrc).toMatch(/'nonce-[A-Za-z0-9+/]{24}'/);
    expect(scriptSrc).not.toContain("unsafe-inline");
    expect(csp).toContain("frame-ancestors 'none'");
    expect(b.headers.get("content-security-policy")).not.toBe(csp);
    // Next.js reads the nonce from the request's CSP header (forwarded as x-middleware-request-*).
    expect(a.headers.get("x-middleware-request-content-security-policy")).toBe(csp);
  });

  it("HSTS only with COOKIE_SECURE=1", async () => {
    delete process.env.COOKIE_SECURE;
    expect((await proxy(new NextRequest("http://localhost/"))).headers.get("strict-transport-security")).toBeNull();
    process.env.COOKIE_SECURE = "1";
    expect((await proxy(new NextRequest("https://probebook.example/"))).headers.get("strict-transport-security")).toMatch(/^max-age=31536000/);
  });
});

describe("malformed paths (proxy.ts)", async () => {
  it("answers 400 for a path with broken %-escapes instead of letting Next fail with a 500", async () => {
    const r = await proxy(new NextRequest("http://localhost/api/runs/%ff%fe"));
    expect(r.status).toBe(400);
    expect(((await r.json()) as { error: string }).error).toMatch(/malformed %-escapes/);
    // API routes pass through without a page CSP.
    expect((await proxy(new NextRequest("http://localhost/api/health"))).headers.get("content-security-policy")).toBeNull();
  });
});
