// One agent operation served outside Next.js: the same checks app/api/handle.ts makes for these
// operations (credential and rate limit, the path's run id, the body's schema, a declared status),
// then the handler of agent-handlers.ts. Errors leave as the routes' JSON error bodies.
import type { IncomingMessage } from "node:http";
import { agentApi } from "../api/agent";
import { checkBody } from "../api/check-body";
import { statusesOf } from "../api/operation";
import { errorBody } from "../http/handle-route";
import { uuidParam } from "../http/params";
import { agentCredentialHash } from "../server/agent/authenticate-agent";
import { agentHandlers, type AgentInput, type AgentTransport } from "./agent-handlers";

export type AgentOperationKey = keyof typeof agentApi;

/** A path of /api/agent/* read as its operation and the run id it names (not yet checked). */
export interface AgentRoute {
  key: AgentOperationKey;
  params: { id?: string };
}

// Each declared path as a pattern: "/api/agent/runs/{id}/chunks" → ^/api/agent/runs/([^/]+)/chunks$.
const ROUTES = (Object.keys(agentApi) as AgentOperationKey[]).map((key) => ({
  key,
  pattern: new RegExp(`^${agentApi[key].path.replace(/[.*+?^$()|[\]\\]/g, "\\$&").replace(/\{id\}/g, "([^/]+)")}$`),
  hasId: agentApi[key].path.includes("{id}"),
}));

/** The operation a path names, or null; the id is taken as written, still %-encoded (serveAgentCall decodes and checks it). */
export function matchAgentPath(path: string): AgentRoute | null {
  for (const r of ROUTES) {
    const m = r.pattern.exec(path);
    if (!m) continue;
    if (!r.hasId) return { key: r.key, params: {} };
    return { key: r.key, params: { id: m[1]! } };
  }
  return null;
}

export interface AgentCall extends AgentRoute {
  /** The request's JSON body, already parsed (and free of `__proto__` keys). */
  json: unknown;
  authorization: string | null;
  headers: Headers;
  signal: AbortSignal;
  transport: AgentTransport;
}

export interface AgentAnswer {
  status: number;
  body?: unknown;
}

export async function serveAgentCall(call: AgentCall): Promise<AgentAnswer> {
  try {
    const op = agentApi[call.key];
    const credentialHash = op.role === "agent" ? await agentCredentialHash(call.authorization) : null;
    // A malformed %-escape is a URIError: 400, as Next.js's routes answer it.
    const params = call.params.id !== undefined ? { id: uuidParam(decodeURIComponent(call.params.id), "run") } : {};
    const body = checkBody(op, op.body, call.json);
    const handler = agentHandlers[call.key] as (input: AgentInput<typeof op>) => Promise<{ status: number; json?: unknown }>;
    const reply = await handler({ params, body, credentialHash, headers: call.headers, signal: call.signal, transport: call.transport } as AgentInput<typeof op>);
    // An undeclared answer is a bug in the handler, which the types already refuse; never send it.
    if (!statusesOf(op)[reply.status]) throw new Error(`${op.path} answered ${reply.status}, which it does not declare`);
    return "json" in reply ? { status: reply.status, body: reply.json } : { status: reply.status };
  } catch (err) {
    return errorBody(err, call.headers.get("x-request-id"));
  }
}

/**
 * The request headers a handler may read: the peer stamp and the proxies' chain, for the client's
 * address (client-address.ts), and the request id scripts/serve.ts set, for error logs.
 */
const ADDRESS_HEADERS = ["x-probebook-peer", "x-forwarded-for", "x-request-id"] as const;

/** Those headers of a request or upgrade, as pairs for `new Headers()`; the gateway copies no others. */
export function addressHeaders(req: IncomingMessage): [string, string][] {
  const out: [string, string][] = [];
  for (const k of ADDRESS_HEADERS) {
    const v = req.headers[k];
    if (typeof v === "string") out.push([k, v]);
  }
  return out;
}
