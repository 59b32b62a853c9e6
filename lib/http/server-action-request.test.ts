import { describe, expect, it } from "vitest";
import { ACTION_BODY_LIMIT, jsonDepth, refuseServerActionRequest } from "./server-action-request";

// Each of these reached Next's action handler and came back as HTTP 500 with an error digest.
const ID = "40ee9e97543f492c24c2e4d4ecd77fb897839155ff";
const action = (init: { headers?: Record<string, string>; body?: BodyInit; path?: string }) => {
  // A FormData body brings its own multipart content type.
  const type: Record<string, string> = init.body instanceof FormData ? {} : { "content-type": "text/plain;charset=UTF-8" };
  return new Request(`http://probebook.test${init.path ?? "/hosts/new"}`, {
    method: "POST",
    headers: { host: "probebook.test", "next-action": ID, ...type, ...init.headers },
    body: init.body ?? "[]",
  });
};

async function refusal(req: Request): Promise<{ status: number; error: string } | null> {
  const r = await refuseServerActionRequest(req);
  return r ? { status: r.status, error: ((await r.json()) as { error: string }).error } : null;
}

describe("server action requests Next would answer with a 500 (proxy.ts)", () => {
  it("refuses a cross-site or unparseable Origin with 403, as Next's own rule decides it", async () => {
    for (const origin of ["http://evil.example", "null", "::not a url", "http://probebook.test.evil.example"]) {
      expect(await refusal(action({ headers: { origin } })), origin).toEqual({ status: 403, error: "Cross-site request refused." });
    }
    // X-Forwarded-Host is what Next compares first; a mismatch with it is refused too.
    expect((await refusal(action({ headers: { origin: "http://probebook.test", "x-forwarded-host": "evil.example" } })))?.status).toBe(403);
    // A no-JS form post (multipart, no Next-Action header) is an action as well.
    const form = new FormData();
    form.set(`$ACTION_ID_${ID}`, "");
    const mpa = new Request("http://probebook.test/settings/tokens", { method: "POST", headers: { host: "probebook.test", origin: "http://evil.example" }, body: form });
    expect((await refusal(mpa))?.status).toBe(403);
  });

  it("lets same-origin and Origin-less actions through, and leaves other requests alone", async () => {
    expect(await refusal(action({ headers: { origin: "http://probebook.test" } }))).toBeNull();
    expect(await refusal(action({ body: '[{},"$K1"]' }))).toBeNull();
    expect(await refusal(new Request("http://probebook.test/api/hosts", { method: "POST", headers: { origin: "http://evil.example" }, body: "{" }))).toBeNull();
    expect(await refusal(new Request("http://probebook.test/hosts/new", { headers: { origin: "http://evil.example" } }))).toBeNull();
    const form = new FormData();
    form.set("0", '[{},"$K1"]');
    form.set("1_name", "db01");
    expect(await refusal(action({ body: form }))).toBeNull();
  });

  it("refuses bodies over the limit (413) and arguments React cannot decode (400)", async () => {
    expect((await refusal(action({ body: `["${"a".repeat(ACTION_BODY_LIMIT)}"]` })))?.status).toBe(413);
    expect((await refusal(action({ body: "garbage{" })))?.status).toBe(400);
    expect((await refusal(action({ body: `${"[".repeat(10_000)}1${"]".repeat(10_000)}` })))?.error).toMatch(/nested too deeply/);
    const form = new FormData();
    form.set("0", "{not json");
    expect((await refusal(action({ body: form })))?.status).toBe(400);
    for (const ref of ['["$Q9"]', '["$@9"]', '["$h9"]', '["$T"]', '[{"$F1":1}]', '["$n-1x"]']) {
      expect((await refusal(action({ body: ref })))?.status, ref).toBe(400);
    }
    expect(await refusal(action({ body: '[{"error":"$$5 left","at":"$D2026-01-01T00:00:00.000Z","n":"$undefined"},"$K1"]' }))).toBeNull();
    const broken = action({ headers: { "content-type": "multipart/form-data; boundary=xyz" }, body: "--nope\r\n" });
    expect((await refusal(broken))?.status).toBe(400);
  });

  it("measures JSON depth outside strings", () => {
    expect(jsonDepth('[{"a":[1]}]')).toBe(3);
    expect(jsonDepth('["[[[[", "\\"[["]')).toBe(1);
    expect(jsonDepth("1")).toBe(0);
  });
});
