import { afterEach, describe, expect, it } from "vitest";
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
});
