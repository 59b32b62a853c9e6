import { z } from "zod";
import { SESSION_COOKIE } from "../../auth/session";
import { API_OPERATIONS } from "./operations";
import type { ApiAuth, ApiOperation } from "./types";

type Json = Record<string, unknown>;

const SECURITY: Record<Exclude<ApiAuth, "public">, Json[]> = {
  viewer: [{ apiToken: [] }, { session: [] }],
  operator: [{ apiToken: [] }, { session: [] }],
  admin: [{ apiToken: [] }, { session: [] }],
  agent: [{ agentCredential: [] }],
};

export function authText(op: Pick<ApiOperation, "auth" | "authNote">): string {
  const base =
    op.auth === "public" ? "public" : op.auth === "agent" ? "agent credential" : `${op.auth} role or above`;
  return op.authNote ? `${base} (${op.authNote})` : base;
}

/**
 * zod → JSON Schema 2020-12 (OpenAPI 3.1's dialect). Named schemas (`.meta({ id })`) land in
 * components.schemas and are referenced from there; dates and other types JSON cannot carry
 * become open schemas rather than failing the document.
 */
function toSchema(schema: z.ZodType, io: "input" | "output", components: Json): Json {
  const out = z.toJSONSchema(schema, { target: "draft-2020-12", io, unrepresentable: "any" }) as Json;
  delete out.$schema;
  const defs = (out.$defs ?? {}) as Record<string, Json>;
  delete out.$defs;
  for (const [name, def] of Object.entries(defs)) components[name] ??= rewriteRefs(def);
  // A named schema converted on its own comes back as itself with an id: refer to it instead.
  const id = typeof out.id === "string" ? out.id : undefined;
  if (id) {
    delete out.id;
    components[id] ??= rewriteRefs(out);
    return { $ref: `#/components/schemas/${id}` };
  }
  return rewriteRefs(out) as Json;
}

function rewriteRefs<T>(value: T): T {
  if (Array.isArray(value)) return value.map(rewriteRefs) as T;
  if (value && typeof value === "object") {
    const out: Json = {};
    for (const [k, v] of Object.entries(value as Json)) {
      if (k === "id") continue;
      out[k] = k === "$ref" && typeof v === "string" ? v.replace(/^#\/\$defs\//, "#/components/schemas/") : rewriteRefs(v);
    }
    return out as T;
  }
  return value;
}

function parameters(op: ApiOperation, components: Json): Json[] {
  const out: Json[] = [];
  for (const m of op.path.matchAll(/\{(\w+)\}/g)) {
    const name = m[1]!;
    out.push({ name, in: "path", required: true, schema: name === "id" ? { type: "string", format: "uuid" } : { type: "string" } });
  }
  if (op.query) {
    for (const [name, field] of Object.entries(op.query.shape as Record<string, z.ZodType>)) {
      const schema = toSchema(field, "input", components);
      const description = typeof schema.description === "string" ? schema.description : undefined;
      out.push({ name, in: "query", required: !field.safeParse(undefined).success, ...(description ? { description } : {}), schema });
    }
  }
  return out;
}

function operationObject(op: ApiOperation, components: Json): Json {
  const responses: Json = {};
  for (const [status, r] of Object.entries(op.responses)) {
    const media = r.contentType ?? "application/json";
    const content = r.schema || r.contentType ? { [media]: { schema: r.schema ? toSchema(r.schema, "output", components) : { type: "string" } } } : undefined;
    responses[status] = { description: r.description, ...(content ? { content } : {}) };
  }
  const params = parameters(op, components);
  return {
    operationId: `${op.method}${op.path.replace(/^\/api/, "").replace(/\{(\w+)\}/g, "By-$1").replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ?? "").toUpperCase())}`,
    summary: op.summary,
    description: [op.description, `Access: ${authText(op)}.`].filter(Boolean).join("\n\n"),
    tags: [op.group],
    ...(params.length ? { parameters: params } : {}),
    ...(op.body ? { requestBody: { required: true, content: { "application/json": { schema: toSchema(op.body, "input", components) } } } } : {}),
    responses,
    security: op.auth === "public" ? [] : SECURITY[op.auth],
    "x-probebook-auth": op.auth,
  };
}

/** The OpenAPI 3.1 document of every operation in the registry. */
export function openApiDocument(opts: { serverUrl?: string; version?: string } = {}): Json {
  const components: Json = {};
  const paths: Record<string, Json> = {};
  for (const op of API_OPERATIONS) (paths[op.path] ??= {})[op.method] = operationObject(op, components);
  return {
    openapi: "3.1.0",
    jsonSchemaDialect: "https://spec.openapis.org/oas/3.1/dialect/base",
    info: {
      title: "Probebook API",
      version: opts.version ?? "0.1.0",
      description:
        "Launch storage probes on hosts, follow their output, read, tag, export and compare results. Users authenticate with an API token (Settings → API tokens) as `Authorization: Bearer pbt_…`, or with the session cookie of a signed-in browser; agents with their credential `Bearer pba_…`.",
    },
    ...(opts.serverUrl ? { servers: [{ url: opts.serverUrl }] } : {}),
    tags: [...new Set(API_OPERATIONS.map((o) => o.group))].map((name) => ({ name })),
    paths,
    components: {
      schemas: components,
      securitySchemes: {
        apiToken: { type: "http", scheme: "bearer", description: "A user's API token (pbt_…)." },
        session: { type: "apiKey", in: "cookie", name: SESSION_COOKIE, description: "The sealed session cookie of a signed-in browser." },
        agentCredential: { type: "http", scheme: "bearer", description: "An agent's credential (pba_…) from /api/agent/register." },
      },
    },
  };
}
