// Walks /api/openapi.json and sends every operation inputs no client should send — NUL, huge,
// negative, non-UUID and far-date parameters; malformed, oversized, deeply nested, wrongly typed,
// prototype-keyed and NUL-carrying JSON bodies — as an anonymous caller, a signed-in admin and
// (agent routes) an agent; then posts garbage to every server action of the build. No answer may
// be a 5xx, and every 4xx of the API must be the JSON error body with a message.
import fs from "node:fs";
import path from "node:path";
import type { APIRequestContext, APIResponse } from "@playwright/test";
import { expect, test } from "../fixtures";
import { apiTokenFor, registerFakeAgent, signInAs } from "../helpers";

type Json = Record<string, unknown>;
type Case = { method: string; path: string; url: string; what: string; headers?: Record<string, string>; body?: string | Buffer; multipart?: Record<string, string> };
type Seen = Case & { as: string; status: number; contentType: string; text: string; redirect?: string; ms: number };

const NUL = "\u0000";
const HUGE = "a".repeat(100 * 1024);
// Node refuses a request line over 16 KiB (431) before the app sees it; 8 KiB reaches the app.
const LONG = "b".repeat(8 * 1024);
const PATH_VALUES: Record<string, string> = {
  nul: "%00",
  "nul-mid": "abc%00def",
  huge: HUGE,
  long: LONG,
  negative: "-1",
  "non-uuid": "not-a-uuid",
  "uuid-ish": "00000000-0000-0000-0000-00000000000g",
  "dot-dot": "..%2F..%2Fetc",
  number: "1e309",
};
const QUERY_VALUES: Record<string, string> = {
  nul: NUL,
  "nul-mid": `x${NUL}y`,
  huge: HUGE,
  long: LONG,
  negative: "-1",
  "negative-big": "-99999999999999999999",
  "non-numeric": "abc",
  nan: "NaN",
  "far-future": "9999-12-31",
  "far-past": "0001-01-01",
  impossible: "2026-13-45",
  "iso-far": "9999-12-31T23:59:59Z",
  "non-uuid": "not-a-uuid",
  "uuid-list": `${"00000000-0000-4000-8000-000000000000,".repeat(40)}x`,
};
const SOME_UUID = "00000000-0000-4000-8000-000000000000";

/** Schema of a request body with its $refs resolved one level at a time. */
function resolve(doc: Json, schema: Json | undefined): Json {
  let s = schema ?? {};
  for (let i = 0; i < 10 && typeof s.$ref === "string"; i++) {
    const name = (s.$ref as string).split("/").pop()!;
    s = ((doc.components as Json).schemas as Record<string, Json>)[name] ?? {};
  }
  return s;
}

function propertiesOf(doc: Json, schema: Json): Record<string, Json> {
  const s = resolve(doc, schema);
  const out: Record<string, Json> = { ...((s.properties as Record<string, Json>) ?? {}) };
  for (const k of ["anyOf", "oneOf", "allOf"]) for (const part of (s[k] as Json[] | undefined) ?? []) Object.assign(out, propertiesOf(doc, part));
  return out;
}

function deep(depth: number, open: string, close: string, leaf: string): string {
  return open.repeat(depth) + leaf + close.repeat(depth);
}

function bodyCases(doc: Json, op: Json): { what: string; body: string | Buffer }[] {
  const rb = op.requestBody as Json | undefined;
  const schema = ((rb?.content as Json | undefined)?.["application/json"] as Json | undefined)?.schema as Json | undefined;
  const max = Number(rb?.["x-max-body-bytes"] ?? 1024 * 1024);
  // A body that turns out valid is served: the claim's long poll would wait 50 s for a job.
  const quiet = schema && "waitSec" in propertiesOf(doc, schema) ? '"waitSec":0,' : "";
  const out: { what: string; body: string | Buffer }[] = [
    { what: "malformed JSON", body: '{"a":' },
    { what: "not JSON", body: "garbage\u0000{" },
    { what: "invalid UTF-8", body: Buffer.concat([Buffer.from(`{${quiet}"a":"`), Buffer.from([0xff, 0xfe]), Buffer.from('"}')]) },
    { what: "deep array", body: deep(10_000, "[", "]", "1") },
    { what: "deep object", body: deep(10_000, '{"a":', "}", "1") },
    { what: "JSON null", body: "null" },
    { what: "JSON array", body: "[1,2,3]" },
    { what: "JSON string", body: '"x"' },
    { what: "JSON number", body: "-1e309" },
    { what: "__proto__ key", body: `{${quiet}"__proto__":{"polluted":1},"constructor":{"prototype":{"polluted":1}}}` },
    { what: "declared length lies", body: `{${quiet.replace(/,$/, "")}}` },
  ];
  if (!schema) return out;
  out.push({ what: "over the declared size", body: `{"x":"${"a".repeat(max)}"}` });
  const props = propertiesOf(doc, schema);
  const names = Object.keys(props);
  const fill = (v: (name: string) => unknown) => JSON.stringify(Object.fromEntries(names.map((n) => [n, v(n)])));
  const wrong: unknown[] = [null, true, -1, 1e308, "x", [], {}, [[[]]], { __proto__: 1 }];
  wrong.forEach((w, i) => out.push({ what: `every field ${JSON.stringify(w)} (${i})`, body: fill(() => w) }));
  out.push({ what: "every field NUL string", body: fill(() => `a${NUL}b`) });
  out.push({ what: "every field huge string", body: fill(() => "z".repeat(Math.min(max / Math.max(names.length, 1) / 2, 200_000))) });
  out.push({ what: "every field far date", body: fill(() => "9999-12-31") });
  out.push({ what: "every field impossible date", body: fill(() => "2026-13-45") });
  out.push({ what: "every field __proto__ object", body: fill(() => JSON.parse('{"__proto__":"1","constructor":"1"}')) });
  out.push({ what: "every field NUL-keyed object", body: fill(() => ({ [`k${NUL}`]: `v${NUL}` })) });
  for (const n of names) {
    for (const [label, v] of [["NUL", `a${NUL}b`], ["impossible date", "2026-13-45"], ["deep", JSON.parse(deep(500, "[", "]", "1"))]] as const) {
      out.push({ what: `${n}: ${label}`, body: JSON.stringify({ [n]: v }) });
    }
  }
  return out;
}

function casesOf(doc: Json): Case[] {
  const out: Case[] = [];
  for (const [p, ops] of Object.entries(doc.paths as Record<string, Record<string, Json>>)) {
    for (const [method, op] of Object.entries(ops)) {
      const params = (op.parameters as { name: string; in: string }[] | undefined) ?? [];
      const pathParams = params.filter((x) => x.in === "path").map((x) => x.name);
      const withPath = (v: string) => p.replace(/\{(\w+)\}/g, () => v);
      const base = withPath(SOME_UUID);
      // The live stream of a real run never ends; with a made-up id it is a 404 at once.
      for (const name of pathParams) for (const [label, v] of Object.entries(PATH_VALUES)) out.push({ method, path: p, url: p.replace(`{${name}}`, v).replace(/\{\w+\}/g, SOME_UUID), what: `path ${name}: ${label}` });
      for (const q of params.filter((x) => x.in === "query")) {
        for (const [label, v] of Object.entries(QUERY_VALUES)) out.push({ method, path: p, url: `${base}?${q.name}=${encodeURIComponent(v)}`, what: `query ${q.name}: ${label}` });
        out.push({ method, path: p, url: `${base}?${q.name}=1&${q.name}=2`, what: `query ${q.name}: repeated` });
      }
      if (method === "get" || method === "delete") {
        out.push({ method, path: p, url: `${base}?__proto__=1&constructor=x&${encodeURIComponent(NUL)}=1`, what: "query: prototype and NUL names" });
        continue;
      }
      for (const b of bodyCases(doc, op)) {
        const lies: Record<string, string> = b.what === "declared length lies" ? { "content-length": "99999999999" } : {};
        out.push({ method, path: p, url: base, what: `body: ${b.what}`, body: b.body, headers: { "content-type": "application/json", ...lies } });
      }
      out.push({ method, path: p, url: base, what: "body: form-encoded", body: "a=1&b=%00", headers: { "content-type": "application/x-www-form-urlencoded" } });
    }
  }
  return out;
}

async function send(api: APIRequestContext, c: Case, as: string, extra: Record<string, string>): Promise<Seen> {
  const started = Date.now();
  let res: APIResponse;
  try {
    res = await api.fetch(c.url, {
      method: c.method.toUpperCase(),
      headers: { ...extra, ...c.headers },
      ...(c.multipart ? { multipart: c.multipart } : c.body !== undefined ? { data: c.body } : {}),
      maxRedirects: 0,
      timeout: 30_000,
    });
  } catch (err) {
    // Refusing an oversized body before reading it may close the socket mid-upload: that is a refusal.
    if (c.what === "body: over the declared size" && /EPIPE|ECONNRESET/.test(String(err))) return { ...c, as, status: 413, contentType: "application/json", text: '{"error":"closed mid-upload"}', ms: Date.now() - started };
    // Any other refused or reset connection is not an answer: report it like a 5xx.
    return { ...c, as, status: 599, contentType: "", text: String(err).slice(0, 300), ms: Date.now() - started };
  }
  const text = (await res.text().catch(() => "")).slice(0, 2000);
  // A fetch action's redirect is a header; a no-JS form post's, a 303 with Location.
  const redirect = res.headers()["x-action-redirect"] ?? res.headers()["location"];
  return { ...c, as, status: res.status(), contentType: res.headers()["content-type"] ?? "", text, ...(redirect ? { redirect } : {}), ms: Date.now() - started };
}

/** Runs every case with at most `limit` requests in flight. */
async function runAll(cases: Case[], limit: number, one: (c: Case) => Promise<Seen>): Promise<Seen[]> {
  const out: Seen[] = [];
  let next = 0;
  await Promise.all(
    Array.from({ length: limit }, async () => {
      while (next < cases.length) out.push(await one(cases[next++]!));
    }),
  );
  return out;
}

const line = (s: Seen) => `${s.as} ${s.method.toUpperCase()} ${s.path} [${s.what}] → ${s.status} ${s.text.replace(/\s+/g, " ").slice(0, 160)}`;

/** What is wrong with an answer: a 5xx, or a 4xx that is not the JSON error body with a message. */
function problem(s: Seen): string | null {
  if (s.status >= 500) return "5xx";
  // Node's own HTTP parser answers an oversized request line or header (431) before any app code.
  if (s.status === 431 || s.status === 414) return null;
  if (s.status >= 400) {
    if (!s.contentType.startsWith("application/json")) return "4xx without JSON";
    try {
      const body = JSON.parse(s.text) as { error?: unknown };
      if (typeof body.error !== "string" || body.error.length === 0) return "4xx without a message";
    } catch {
      return "4xx with a body that is not JSON";
    }
  }
  return null;
}

// About 1,800 requests: 1.5 to 3 minutes on two cores, depending on what else runs there.
test.describe.configure({ timeout: 300_000 });

test("no API operation answers a 5xx to fuzzed paths, queries and bodies", async ({ page, playwright, baseURL }) => {
  const anon = await playwright.request.newContext({ baseURL });
  const doc = (await (await anon.get("/api/openapi.json")).json()) as Json;
  const cases = casesOf(doc);
  expect(cases.length).toBeGreaterThan(500);

  await signInAs(page, "admin");
  const admin = page.context().request;
  const { credential } = await registerFakeAgent(anon, await apiTokenFor("operator"), "fuzz");
  const auth = (c: Case) => String((doc.paths as Record<string, Record<string, Json>>)[c.path]?.[c.method]?.["x-probebook-auth"] ?? "");
  const isAgent = (c: Case) => auth(c) === "agent";
  // Without credentials a protected operation answers 401 before it reads its body: a few bodies
  // show that order holds; every body goes to public operations and to the callers let in.
  const anonymousCases = cases.filter((c) => auth(c) === "public" || !c.what.startsWith("body: ") || /malformed|deep array|over the declared/.test(c.what));

  // Bodies of many MiB go one at a time, last: a server that refuses one before reading it closes
  // the connection, which must not take other requests in flight down with it.
  const big = (c: Case) => c.what === "body: over the declared size";
  const phase = async (list: Case[], as: string, api: APIRequestContext, extra: (c: Case) => Record<string, string>) => [
    ...(await runAll(list.filter((c) => !big(c)), 8, (c) => send(api, c, as, extra(c)))),
    ...(await runAll(list.filter(big), 1, (c) => send(api, c, as, extra(c)))),
  ];
  const seen = [
    ...(await phase(anonymousCases, "anonymous", anon, () => ({}))),
    ...(await phase(cases.filter((c) => !isAgent(c)), "admin", admin, (c): Record<string, string> => (c.method === "get" ? {} : { origin: baseURL! }))),
    ...(await phase(cases.filter(isAgent), "agent", anon, () => ({ authorization: `Bearer ${credential}` }))),
  ];
  const slowest = [...seen].sort((a, b) => b.ms - a.ms).slice(0, 15);
  console.log(`openapi fuzz: ${seen.length} requests; slowest:\n${slowest.map((s) => `${s.ms} ms ${line(s).slice(0, 120)}`).join("\n")}`);
  const bad = seen.filter((s) => problem(s) !== null);
  expect(bad.map((s) => `${problem(s)}: ${line(s)}`), `of ${seen.length} requests`).toEqual([]);
  await anon.dispose();
});

// --- server actions ---------------------------------------------------------------------------

const root = path.resolve(__dirname, "..", "..");

/** Every server action of the build with a page that serves it (from Next's own manifest). */
function serverActions(): { id: string; name: string; page: string }[] {
  const manifest = JSON.parse(fs.readFileSync(path.join(root, ".next", "server", "server-reference-manifest.json"), "utf8")) as {
    node: Record<string, { exportedName?: string; workers: Record<string, unknown> }>;
  };
  return Object.entries(manifest.node).map(([id, a]) => {
    const worker = Object.keys(a.workers).find((w) => !w.includes("_not-found")) ?? Object.keys(a.workers)[0]!;
    const page = worker.replace(/^app/, "").replace(/\/page$/, "").replace(/\[\w+\]/g, SOME_UUID) || "/";
    return { id, name: a.exportedName ?? id, page };
  });
}

// React's encoding of a fetch action's arguments: field 0 is the argument list, `$K1` a FormData
// whose entries are the fields prefixed with `1_`.
const garbageForm = { "1_hostId": "not-a-uuid", "1_userId": `x${NUL}`, "1_tokenId": "-1", "1_slug": HUGE.slice(0, 5000), "1_role": "ROOT", "1_name": NUL, "1_email": "a@b", "1_password": "", "1_medium": "floppy", "1_device": "../../dev/sda", "1_sessionId": "9999-12-31", "1_expiresInDays": "-1", "1_next": "//evil.example" };

function actionCases(actions: ReturnType<typeof serverActions>, origin: string): Case[] {
  const out: Case[] = [];
  for (const a of actions) {
    const h = (more: Record<string, string> = {}) => ({ "next-action": a.id, accept: "text/x-component", origin, ...more });
    const c = (what: string, rest: Partial<Case>) => out.push({ method: "post", path: `${a.page} (${a.name})`, url: a.page, what, ...rest });
    c("no arguments", { headers: h({ "content-type": "text/plain;charset=UTF-8" }), body: "[]" });
    c("string instead of a form", { headers: h({ "content-type": "text/plain;charset=UTF-8" }), body: '["x","y"]' });
    c("objects instead of a form", { headers: h({ "content-type": "text/plain;charset=UTF-8" }), body: '[{"__proto__":{"a":1}},{"get":1}]' });
    c("one form of garbage", { headers: h(), multipart: { "0": '["$K1"]', ...garbageForm } });
    c("state and a form of garbage", { headers: h(), multipart: { "0": '[{},"$K1"]', ...garbageForm } });
    c("dangling references", { headers: h({ "content-type": "text/plain;charset=UTF-8" }), body: '["$Q9","$@9","$K9","$h9","$T","$n-1"]' });
    c("malformed body", { headers: h({ "content-type": "text/plain;charset=UTF-8" }), body: "garbage{" });
    c("deep body", { headers: h({ "content-type": "text/plain;charset=UTF-8" }), body: deep(10_000, "[", "]", "1") });
    c("oversized body", { headers: h({ "content-type": "text/plain;charset=UTF-8" }), body: `["${"a".repeat(1024 * 1024 + 10)}"]` });
    c("cross-origin", { headers: h({ origin: "http://evil.example", "content-type": "text/plain;charset=UTF-8" }), body: "[]" });
    c("forwarded host mismatch", { headers: h({ "x-forwarded-host": "evil.example", "content-type": "text/plain;charset=UTF-8" }), body: "[]" });
    c("origin not a URL", { headers: h({ origin: "::not a url", "content-type": "text/plain;charset=UTF-8" }), body: "[]" });
    c("origin null", { headers: h({ origin: "null", "content-type": "text/plain;charset=UTF-8" }), body: "[]" });
    c("no-JS form post of garbage", { headers: { origin }, multipart: { [`$ACTION_ID_${a.id}`]: "", ...Object.fromEntries(Object.entries(garbageForm).map(([k, v]) => [k.slice(2), v])) } });
    c("unknown action id", { headers: h({ "next-action": `${a.id.slice(0, -2)}00`, "content-type": "text/plain;charset=UTF-8" }), body: "[]" });
    c("garbage action id", { headers: h({ "next-action": `zz${NUL}`.replace(NUL, "%00"), "content-type": "text/plain;charset=UTF-8" }), body: "[]" });
  }
  return out;
}

/** A server action's refusal: anything but a 5xx (a redirect, the 403 or 404 page, the form's error). */
const actionProblem = (s: Seen) => (s.status >= 500 ? "5xx" : /"digest":"\d+"/.test(s.text) ? "error digest" : null);

test("no server action answers a 5xx to garbage, signed out or below its role", async ({ page, playwright, baseURL }) => {
  const actions = serverActions();
  expect(actions.map((a) => a.name)).toEqual(expect.arrayContaining(["createHostAction", "changeRoleAction", "signInAction", "revokeShareAction"]));
  const cases = actionCases(actions, new URL(baseURL!).origin);
  const anon = await playwright.request.newContext({ baseURL });
  await signInAs(page, "viewer");
  const viewer = page.context().request;
  // Signing out would end the viewer's session halfway: those two run anonymously only.
  const keepsSession = (c: Case) => !/signOut(Everywhere)?Action/.test(c.path);
  // What proxy.ts refuses does not depend on who asks: the viewer sends the arguments only.
  const reachesTheAction = (c: Case) => /arguments|instead of a form|form of garbage|references/.test(c.what);
  const seen = [
    ...(await runAll(cases, 8, (c) => send(anon, c, "anonymous", {}))),
    ...(await runAll(cases.filter((c) => keepsSession(c) && reachesTheAction(c)), 8, (c) => send(viewer, c, "viewer", {}))),
  ];
  expect(
    seen.filter((s) => actionProblem(s) !== null).map((s) => `${actionProblem(s)}: ${line(s)}`),
    `of ${seen.length} requests`,
  ).toEqual([]);
  // The refusals are the app's own: signed out, sign-in coming back here; a viewer at an admin's
  // or operator's button, the Not allowed page naming the role.
  const garbage = (as: string, name: string) => seen.find((s) => s.as === as && s.path.endsWith(`(${name})`) && s.what === "one form of garbage");
  expect(garbage("anonymous", "changeRoleAction")?.redirect).toMatch(/^\/sign-in\?next=%2F/);
  expect(garbage("anonymous", "createHostAction")?.redirect).toMatch(/^\/sign-in\?next=/);
  expect(garbage("viewer", "changeRoleAction")?.redirect).toMatch(/^\/forbidden\?need=admin/);
  expect(garbage("viewer", "recheckToolsAction")?.redirect).toMatch(/^\/forbidden\?need=operator/);
  expect(garbage("viewer", "revokeTokenAction")?.redirect).toMatch(/^\/forbidden\?refused=invalid/);
  expect(garbage("viewer", "createHostAction")?.text).toContain("This needs the operator role; you are viewer.");
  await anon.dispose();
});
