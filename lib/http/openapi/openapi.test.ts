import fs from "node:fs";
import path from "node:path";
import { Validator } from "@seriousme/openapi-schema-validator";
import { describe, expect, it } from "vitest";
import { openApiDocument } from "./document";
import { API_OPERATIONS } from "./operations";

const root = path.resolve(__dirname, "..", "..", "..");
const METHODS = ["GET", "POST", "PUT", "PATCH", "DELETE"] as const;

/** "GET /api/runs/{id}" for every handler exported by a route.ts under app/api. */
function routeHandlers(): string[] {
  const out: string[] = [];
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
          if (new RegExp(`export\\s+(const|async function|function)\\s+${m}\\b|export\\s*\\{[^}]*\\b${m}\\b`).test(src)) out.push(`${m} ${url}`);
        }
      }
    }
  };
  walk(path.join(root, "app", "api"));
  return out.sort();
}

describe("the OpenAPI document", () => {
  const doc = openApiDocument({ serverUrl: "http://127.0.0.1:3000" });
  const documented = Object.entries(doc.paths as Record<string, Record<string, unknown>>)
    .flatMap(([p, ops]) => Object.keys(ops).map((m) => `${m.toUpperCase()} ${p}`))
    .sort();

  it("lists every route handler under app/api (add missing ones to lib/http/openapi/routes/)", () => {
    const handlers = routeHandlers();
    expect(handlers.length).toBeGreaterThan(20);
    expect(handlers.filter((h) => !documented.includes(h))).toEqual([]);
  });

  it("lists no route that does not exist", () => {
    const handlers = routeHandlers();
    expect(documented.filter((d) => !handlers.includes(d))).toEqual([]);
  });

  it("declares each operation once", () => {
    const keys = API_OPERATIONS.map((o) => `${o.method} ${o.path}`);
    expect(keys.length).toBe(new Set(keys).size);
  });

  it("validates as OpenAPI 3.1 against the specification's own JSON Schema", async () => {
    const validator = new Validator();
    const result = await validator.validate(doc as never);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    expect(validator.version).toBe("3.1");
  });

  it("describes bodies with the routes' own zod schemas", () => {
    const paths = doc.paths as Record<string, Record<string, { requestBody?: { content: Record<string, { schema: { properties?: Record<string, { pattern?: string; maxItems?: number }> } }> } }>>;
    const patch = paths["/api/runs/{id}"]!.patch!.requestBody!.content["application/json"]!.schema;
    expect(patch.properties?.tags?.maxItems).toBe(12);
    const chunks = paths["/api/agent/runs/{id}/chunks"]!.post!.requestBody!.content["application/json"]!.schema as { properties: { chunks: { maxItems: number } } };
    expect(chunks.properties.chunks.maxItems).toBe(64);
  });

  it("fails validation for a broken document (the validator is not a rubber stamp)", async () => {
    const broken = { ...doc, paths: { "/api/x": { get: { responses: { 200: { content: {} } } } } } };
    const result = await new Validator().validate(broken as never);
    expect(result.valid).toBe(false);
  });
});
