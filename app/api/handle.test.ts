import crypto from "node:crypto";
import { z } from "zod";
import { beforeAll, describe, expect, it } from "vitest";
import { hostsApi } from "@/lib/api/hosts";
import { defineOperation, err } from "@/lib/api/operation";
import { openApiDocument } from "@/lib/api/openapi";
import { accessPolicy } from "@/lib/api/operations";
import { createApiToken } from "@/lib/server/tokens/create-api-token";
import { createUser } from "@/lib/server/users/create-user";
import { connectTestDatabase } from "@/lib/testing/db";
import { handle } from "./handle";

connectTestDatabase();

const tokens: Record<"VIEWER" | "OPERATOR", string> = { VIEWER: "", OPERATOR: "" };
beforeAll(async () => {
  for (const role of ["VIEWER", "OPERATOR"] as const) {
    const user = await createUser({ email: `handle-${role.toLowerCase()}-${crypto.randomUUID().slice(0, 8)}@example.test`, password: "long enough 1", role });
    tokens[role] = (await createApiToken({ userId: user.id, name: "handle test" })).token;
  }
});

const get = (url: string, token?: string) => new Request(`http://127.0.0.1${url}`, { headers: token ? { authorization: `Bearer ${token}` } : {} });
const answer = async () => ({ status: 200 as const, json: { hosts: [] } });

describe("one declaration decides the handler and the document", () => {
  it("changing a declaration's role changes what the handler enforces and what the document and access table say", async () => {
    const declared = hostsApi.list;
    const changed = { ...hostsApi.list, role: "operator" as const };

    // As declared: viewers may list hosts.
    expect((await handle(declared, answer)(get("/api/hosts", tokens.VIEWER))).status).toBe(200);
    // With the role raised: the same viewer is refused, an operator passes.
    expect((await handle(changed, answer)(get("/api/hosts", tokens.VIEWER))).status).toBe(403);
    expect((await handle(changed, answer)(get("/api/hosts", tokens.OPERATOR))).status).toBe(200);

    const before = (openApiDocument({ operations: [declared] }).paths as Record<string, Record<string, Record<string, unknown>>>)["/api/hosts"]!.get!;
    const after = (openApiDocument({ operations: [changed] }).paths as Record<string, Record<string, Record<string, unknown>>>)["/api/hosts"]!.get!;
    expect(before["x-probebook-auth"]).toBe("viewer");
    expect(after["x-probebook-auth"]).toBe("operator");
    expect(after.description).toContain("Access: operator role or above.");
    expect(accessPolicy([changed])).toEqual({ "GET /api/hosts": "operator" });

    // Made public: no credentials needed, and the document drops the security and the 401/403.
    const open = { ...hostsApi.list, role: "public" as const };
    expect((await handle(open, answer)(get("/api/hosts"))).status).toBe(200);
    const publicDoc = (openApiDocument({ operations: [open] }).paths as Record<string, Record<string, Record<string, unknown>>>)["/api/hosts"]!.get!;
    expect(publicDoc.security).toEqual([]);
    expect(Object.keys(publicDoc.responses as object)).toEqual(["200", "503"]);
  });
});

describe("input is checked before the handler runs", () => {
  const echo = defineOperation({
    method: "post",
    path: "/api/echo/{id}",
    group: "Test",
    summary: "echo",
    role: "public",
    idOf: "thing",
    query: z.object({ n: z.coerce.number().int().min(1).default(1) }),
    body: z.object({ text: z.string().max(10), note: z.string().max(3).optional() }),
    maxBodyBytes: 100,
    tooLargeFields: ["text"],
    responses: { 200: { description: "ok", json: z.object({ text: z.string(), n: z.number(), id: z.string() }) }, 409: err("never") },
  });
  const serve = handle(echo, async ({ body, query, params }) => ({ status: 200, json: { text: body.text, n: query.n, id: params.id } }));
  const id = crypto.randomUUID();
  const post = (url: string, body: string) =>
    serve(new Request(`http://127.0.0.1${url}`, { method: "POST", headers: { "content-type": "application/json" }, body }), { params: Promise.resolve({ id: url.split("/")[3]!.split("?")[0]! }) });

  it("answers the declared JSON with the parsed input", async () => {
    const r = await post(`/api/echo/${id.toUpperCase()}?n=3`, JSON.stringify({ text: "hi" }));
    expect(r.status).toBe(200);
    expect(r.headers.get("content-type")).toMatch(/^application\/json/);
    expect(await r.json()).toEqual({ text: "hi", n: 3, id });
  });

  it("names the field of a bad body, query or id", async () => {
    const bad = await post(`/api/echo/${id}`, JSON.stringify({ text: 5 }));
    expect(bad.status).toBe(400);
    expect(Object.keys(((await bad.json()) as { fieldErrors: object }).fieldErrors)).toEqual(["text"]);
    const q = await post(`/api/echo/${id}?n=0`, JSON.stringify({ text: "x" }));
    expect(q.status).toBe(400);
    expect(((await q.json()) as { error: string; fieldErrors: object }).fieldErrors).toHaveProperty("n");
    expect((await post("/api/echo/not-a-uuid", JSON.stringify({ text: "x" }))).status).toBe(404);
    expect((await post(`/api/echo/${id}`, "{nope")).status).toBe(400);
  });

  it("answers 413 for a body over the limit and for a size field over its length, 400 for other lengths", async () => {
    expect((await post(`/api/echo/${id}`, JSON.stringify({ text: "x".repeat(200) }))).status).toBe(413);
    const long = await post(`/api/echo/${id}`, JSON.stringify({ text: "x".repeat(11) }));
    expect(long.status).toBe(413);
    expect(((await long.json()) as { fieldErrors: object }).fieldErrors).toHaveProperty("text");
    expect((await post(`/api/echo/${id}`, JSON.stringify({ text: "x", note: "long" }))).status).toBe(400);
  });
});

// Issue 27 item 14: every API query parameter, declared or not, refuses NUL before any schema or SQL.
describe("query strings with NUL", () => {
  it("GET /api/admin/audit?actor=%00 (and target, ip, any other parameter) is a 400 naming it", async () => {
    const admin = await createUser({ email: `handle-admin-${crypto.randomUUID().slice(0, 8)}@example.test`, password: "long enough 1", role: "ADMIN" });
    const token = (await createApiToken({ userId: admin.id, name: "handle test" })).token;
    const { serviceApi } = await import("@/lib/api/service");
    const { listAudit } = await import("@/lib/server/audit/list-audit");
    const audit = handle(serviceApi.audit, async ({ query }) => ({ status: 200, json: { events: await listAudit(query) } }));
    for (const name of ["actor", "target", "ip"]) {
      const r = await audit(get(`/api/admin/audit?${name}=%00`, token));
      expect(r.status, name).toBe(400);
      const body = (await r.json()) as { error: string; fieldErrors: Record<string, string[]> };
      expect(body.error).toContain(name);
      expect(Object.keys(body.fieldErrors)).toEqual([name]);
    }
    expect((await audit(get("/api/admin/audit?actor=ok", token))).status).toBe(200);
    // A parameter the schema does not declare is refused too; so is a NUL in a parameter's name.
    expect((await audit(get("/api/admin/audit?x=a%00b", token))).status).toBe(400);
    expect((await audit(get("/api/admin/audit?a%00=1", token))).status).toBe(400);
  });
});
