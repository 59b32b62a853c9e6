import fs from "node:fs";
import path from "node:path";
import { compileErrors, validate as readmeValidate } from "@readme/openapi-parser";
import { Validator } from "@seriousme/openapi-schema-validator";
import { describe, expect, it } from "vitest";
import { openApiDocument } from "./openapi";
import { statusesOf } from "./operation";
import { API_OPERATIONS } from "./operations";

const root = path.resolve(__dirname, "..", "..");
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;

type Json = Record<string, unknown>;
type Responses = Record<string, { content?: Record<string, { schema: Json }> }>;

/** "GET /api/runs/{id}" for every handler exported by a route.ts under app/api (and app/metrics). */
function routeHandlers(): { key: string; src: string }[] {
  const out: { key: string; src: string }[] = [];
  const walk = (dir: string) => {
    for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
      const p = path.join(dir, e.name);
      if (e.isDirectory()) walk(p);
      else if (/^route\.(ts|tsx|js)$/.test(e.name)) {
        const url = `/${path.relative(path.join(root, "app"), path.dirname(p)).split(path.sep).join("/")}`
          .split("/")
          .filter((s) => !/^\(.*\)$/.test(s)) // route groups do not appear in URLs
          .join("/")
          .replace(/\[\.{0,3}(\w+)\]/g, "{$1}");
        const src = fs.readFileSync(p, "utf8");
        for (const m of METHODS) {
          const decl = new RegExp(`export\\s+const\\s+${m}\\s*=\\s*(\\w+)\\(`).exec(src);
          if (decl || new RegExp(`export\\s+(async function|function)\\s+${m}\\b|export\\s*\\{[^}]*\\b${m}\\b`).test(src)) out.push({ key: `${m} ${url}`, src: decl?.[1] ?? "function" });
        }
      }
    }
  };
  walk(path.join(root, "app", "api"));
  // The one operation outside /api: Prometheus's conventional /metrics.
  walk(path.join(root, "app", "metrics"));
  return out.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0));
}

const doc = openApiDocument({ serverUrl: "http://127.0.0.1:3000" });
const paths = doc.paths as Record<string, Record<string, Json>>;
const responsesOf = (p: string, m: string) => paths[p]![m]!.responses as Responses;

describe("the declared operations", () => {
  const documented = Object.entries(paths).flatMap(([p, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${p}`)).sort();

  it("are exactly the route handlers under app/api, each served by handle() (or handleAgent(), its form for the agent's operations)", () => {
    const handlers = routeHandlers();
    expect(handlers.length).toBeGreaterThan(30);
    expect(handlers.map((h) => h.key)).toEqual(documented);
    expect(handlers.filter((h) => h.src !== "handle" && h.src !== "handleAgent").map((h) => h.key), "export const METHOD = handle(operation, fn)").toEqual([]);
    // The agent's operations are served by handleAgent, with the handlers the gateway also calls.
    expect(handlers.filter((h) => h.src === "handleAgent").map((h) => h.key).every((k) => k.includes(" /api/agent/"))).toBe(true);
  });

  it("declare each method and path once", () => {
    const keys = API_OPERATIONS.map((o) => `${o.method} ${o.path}`);
    expect(keys.length).toBe(new Set(keys).size);
  });
});

describe("the OpenAPI document", () => {
  it("validates as OpenAPI 3.1 against the specification's own JSON Schema (@seriousme/openapi-schema-validator)", async () => {
    const validator = new Validator();
    const result = await validator.validate(structuredClone(doc) as never);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe("3.1");
  });

  it("validates with a second, independent validator (@readme/openapi-parser: schema plus references, operationIds, parameters)", async () => {
    const result = await readmeValidate(structuredClone(doc) as never);
    expect(result.valid ? "" : compileErrors(result)).toBe("");
    expect(result.warnings).toEqual([]);
  });

  it("is refused by both validators when broken (neither is a rubber stamp)", async () => {
    const broken = { ...structuredClone(doc), paths: { "/api/x": { get: { responses: { 200: { content: {} } } } } } };
    expect((await new Validator().validate(broken as never)).valid).toBe(false);
    expect((await readmeValidate(structuredClone(broken) as never)).valid).toBe(false);
  });

  it("keeps properties named id in the named schemas (only zod's schema id is dropped)", () => {
    const run = (doc.components as { schemas: Record<string, { properties: Json; required: string[]; id?: unknown }> }).schemas.Run!;
    expect(run.properties.id).toMatchObject({ type: "string", format: "uuid" });
    expect(run.required).toContain("id");
    expect(run.id).toBeUndefined();
    const created = responsesOf("/api/runs", "post")["201"]!.content!["application/json"]!.schema as { properties: Json };
    expect(Object.keys(created.properties)).toEqual(["id", "ids"]);
  });

  it("gives every query parameter a real schema (coerced dates too, not {}), and says where POST /api/runs takes its target", () => {
    type Param = { name: string; in: string; schema: Json };
    const paths = doc.paths as Record<string, Record<string, { parameters?: Param[]; requestBody?: { content: Record<string, { schema: Json }> } }>>;
    for (const [p, methods] of Object.entries(paths)) {
      for (const [m, o] of Object.entries(methods)) {
        for (const param of o.parameters ?? []) expect(Object.keys(param.schema), `${m} ${p} ?${param.name}`).not.toEqual([]);
      }
    }
    const list = paths["/api/runs"]!.get!.parameters!;
    for (const bound of ["from", "to"]) {
      expect(list.find((q) => q.name === bound)!.schema).toMatchObject({ type: "string", anyOf: [{ format: "date" }, { format: "date-time" }] });
    }
    const body = paths["/api/runs"]!.post!.requestBody!.content["application/json"]!.schema as { properties: Record<string, Json>; examples: { params: Json }[] };
    expect(body.properties.params).toMatchObject({ properties: { target: { type: "string" } }, required: ["target"] });
    expect(body.properties.target).toBeUndefined();
    expect(body.examples[0]!.params).toEqual({ target: "/srv/probebook" });
  });

  it("documents CSV answers as CSV", () => {
    for (const p of ["/api/runs/{id}/export", "/api/comparisons/preview", "/api/experiments/{id}/export", "/api/comparisons/{slug}/csv"]) {
      expect(Object.keys(responsesOf(p, "get")["200"]!.content!), p).toContain("text/csv");
    }
  });

  it("documents 413 on every body, 400 on every agent route and 503 everywhere", () => {
    for (const op of API_OPERATIONS) {
      const statuses = Object.keys(responsesOf(op.path, op.method));
      const name = `${op.method} ${op.path}`;
      expect(statuses, name).toContain("503");
      if (op.body) expect(statuses, name).toEqual(expect.arrayContaining(["400", "413"]));
      if (op.role === "agent") expect(statuses, name).toContain("400");
      if (op.role !== "public" && op.role !== "agent") expect(statuses, name).toEqual(expect.arrayContaining(["401", "403"]));
    }
  });

  it("describes bodies with the handlers' own zod schemas", () => {
    const body = (p: string, m: string) => (paths[p]![m]!.requestBody as { content: Record<string, { schema: Json }> }).content["application/json"]!.schema;
    expect((body("/api/runs/{id}", "patch") as { properties: { tags: { maxItems: number } } }).properties.tags.maxItems).toBe(12);
    expect((body("/api/agent/runs/{id}/chunks", "post") as { properties: { chunks: { maxItems: number } } }).properties.chunks.maxItems).toBe(64);
  });

  it("lists the statuses statusesOf gives, no more", () => {
    for (const op of API_OPERATIONS) expect(Object.keys(responsesOf(op.path, op.method)).sort()).toEqual(Object.keys(statusesOf(op)).sort());
  });
});
