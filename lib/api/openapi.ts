import { AGENT_SOCKET_PATH, AGENT_SOCKET_PROTOCOLS, MAX_SOCKET_IN_FLIGHT, SOCKET_CLAIM_WAIT_SEC, SOCKET_CLOSE } from "../../probes/protocol/agent-socket";
import { z } from "zod";
import { SESSION_COOKIE } from "../auth/session-cookie";
import { authText, DEFAULT_MAX_BODY_BYTES, statusesOf, type Operation, type Role } from "./operation";
import { API_OPERATIONS } from "./operations";

type Json = Record<string, unknown>;

const SECURITY: Record<Exclude<Role, "public">, Json[]> = {
  viewer: [{ apiToken: [] }, { session: [] }],
  operator: [{ apiToken: [] }, { session: [] }],
  admin: [{ apiToken: [] }, { session: [] }],
  agent: [{ agentCredential: [] }],
};

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
  for (const [name, def] of Object.entries(defs)) components[name] ??= rewriteSchema(def);
  // A named schema converted on its own comes back as itself with an id: refer to it instead.
  const id = typeof out.id === "string" ? out.id : undefined;
  if (id) {
    components[id] ??= rewriteSchema(out);
    return { $ref: `#/components/schemas/${id}` };
  }
  return rewriteSchema(out);
}

// Keywords whose value maps names (property names, definition names) to schemas: a key named
// "id" there is a property, not zod's schema id.
const NAME_MAPS = new Set(["properties", "patternProperties", "$defs", "dependentSchemas"]);
// Keywords whose value is data, never a schema.
const DATA = new Set(["default", "examples", "const", "enum", "required"]);

/**
 * Points $defs references at components.schemas and drops zod's `id` keyword (the component's
 * name) from schema objects only — a property called `id` stays, as do the `required` lists
 * that name it.
 */
function rewriteSchema(schema: Json): Json {
  const out: Json = {};
  for (const [k, v] of Object.entries(schema)) {
    if (k === "id" && typeof v === "string") continue;
    if (k === "$ref" && typeof v === "string") out[k] = v.replace(/^#\/\$defs\//, "#/components/schemas/");
    else if (DATA.has(k)) out[k] = v;
    else if (NAME_MAPS.has(k) && v && typeof v === "object") out[k] = Object.fromEntries(Object.entries(v as Json).map(([n, s]) => [n, rewriteValue(s)]));
    else out[k] = rewriteValue(v);
  }
  return out;
}

function rewriteValue(v: unknown): unknown {
  if (Array.isArray(v)) return v.map(rewriteValue);
  if (v && typeof v === "object") return rewriteSchema(v as Json);
  return v;
}

function parameters(op: Operation, components: Json): Json[] {
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

/** "getRunsById" for GET /api/runs/{id}: stable, unique per method and path. */
export function operationId(op: Pick<Operation, "method" | "path">): string {
  return `${op.method}${op.path.replace(/^\/api/, "").replace(/\{(\w+)\}/g, "By-$1").replace(/[^A-Za-z0-9]+(.)?/g, (_m, c: string | undefined) => (c ?? "").toUpperCase())}`;
}

function operationObject(op: Operation, components: Json): Json {
  const responses: Json = {};
  for (const [status, r] of Object.entries(statusesOf(op))) {
    const content: Json = {};
    if (r.json) content["application/json"] = { schema: toSchema(r.json, "output", components) };
    for (const media of r.text ?? []) content[media] = { schema: { type: "string" } };
    responses[status] = { description: r.description, ...(Object.keys(content).length ? { content } : {}) };
  }
  const params = parameters(op, components);
  return {
    operationId: operationId(op),
    summary: op.summary,
    description: [op.description, `Access: ${authText(op)}.`].filter(Boolean).join("\n\n"),
    tags: [op.group],
    ...(params.length ? { parameters: params } : {}),
    // x-max-body-bytes: the size beyond which the body is refused with 413 (clients and the fuzz test read it).
    ...(op.body ? { requestBody: { required: true, content: { [op.bodyMedia ?? "application/json"]: { schema: toSchema(op.body, "input", components) } }, "x-max-body-bytes": op.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES } } : {}),
    responses,
    security: op.role === "public" ? [] : SECURITY[op.role],
    "x-probebook-auth": op.role,
  };
}

/** What a group's operations share that no single operation says. */
const TAG_DESCRIPTIONS: Record<string, string> = {
  "Agent protocol": `Every operation below except register is also served over the agent socket: a WebSocket at \`${AGENT_SOCKET_PATH}\` (subprotocol ${AGENT_SOCKET_PROTOCOLS.map((p) => `\`${p}\``).join(", ")}, \`Authorization: Bearer pba_…\` on the upgrade). A request frame is \`{"id": n, "path": "<the operation's path>", "body": <its body>}\`, its reply \`{"id": n, "status": <the status>, "body": <the body>}\`, as documented here. A claim over the socket may wait up to ${SOCKET_CLAIM_WAIT_SEC} s and is answered the moment a job is queued. Close codes: ${SOCKET_CLOSE.malformed} malformed frame, ${SOCKET_CLOSE.revoked} credential revoked, ${SOCKET_CLOSE.tooManyInFlight} more than ${MAX_SOCKET_IN_FLIGHT} requests unanswered, 1001 server restarting.`,
};

/** The OpenAPI 3.1 document of every declared operation (or of the ones given, for tests). */
export function openApiDocument(opts: { serverUrl?: string; version?: string; operations?: readonly Operation[] } = {}): Json {
  const operations = opts.operations ?? API_OPERATIONS;
  const components: Json = {};
  const paths: Record<string, Json> = {};
  for (const op of operations) (paths[op.path] ??= {})[op.method] = operationObject(op, components);
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
    tags: [...new Set(operations.map((o) => o.group))].map((name) => ({ name, ...(TAG_DESCRIPTIONS[name] ? { description: TAG_DESCRIPTIONS[name] } : {}) })),
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
