import type { Role as UserRole } from "@prisma/client";
import type { z } from "zod";
import { requireActor, type Actor } from "@/lib/auth/actor";
import { DEFAULT_MAX_BODY_BYTES, statusesOf, type Operation, type Role, type TextMedia } from "@/lib/api/operation";
import type { ReplyOf } from "@/lib/api/reply";
import type { agentApi } from "@/lib/api/agent";
import type { AgentHandler, AgentInput } from "@/lib/gateway/agent-handlers";

export type { Reply } from "@/lib/api/reply";
import { AppError } from "@/lib/http/app-error";
import { checkBody } from "@/lib/api/check-body";
import { fieldErrorsOf, readFormBody, readJsonBody, route } from "@/lib/http/handle-route";
import { uuidParam } from "@/lib/http/params";
import { hasNul } from "@/lib/http/query-schemas";
import { agentCredentialHash } from "@/lib/server/agent/authenticate-agent";

type SignedIn = "viewer" | "operator" | "admin";
const USER_ROLE: Record<SignedIn, UserRole> = { viewer: "VIEWER", operator: "OPERATOR", admin: "ADMIN" };

type ParamNames<P> = P extends `${string}{${infer N}}${infer R}` ? N | ParamNames<R> : never;

/** What a handler is given: the request's input already checked against its operation. */
export interface HandlerInput<O extends Operation> {
  req: Request;
  /** Path parameters; `id` is a UUID in lower case (a non-UUID answered 404 before the handler). */
  params: { [K in ParamNames<O["path"]>]: string };
  query: O extends { query: infer Q extends z.ZodType } ? z.output<Q> : undefined;
  body: O extends { body: infer B extends z.ZodType } ? z.output<B> : undefined;
  actor: O["role"] extends SignedIn ? Actor : null;
  /** For agent operations: the credential's hash (counted against the agent's rate limit). */
  agent: O["role"] extends "agent" ? { credentialHash: string } : null;
}

const isSignedIn = (role: Role): role is SignedIn => role === "viewer" || role === "operator" || role === "admin";

function parseQuery(op: Operation, schema: z.ZodObject, params: URLSearchParams): unknown {
  const entries = [...params.entries()].filter(([, v]) => !(op.blankQueryIsAbsent && v.trim() === ""));
  // Any parameter, declared or not: a NUL would reach PostgreSQL's text and fail there (a 500).
  const withNul = entries.filter(([k, v]) => hasNul(k) || hasNul(v)).map(([k]) => k.replaceAll("\u0000", "\\0"));
  if (withNul.length > 0) {
    const fieldErrors = Object.fromEntries(withNul.map((k) => [k, ["must not contain NUL characters"]]));
    throw new AppError("BAD_REQUEST", `Query parameters must not contain NUL characters (${withNul.join(", ")}).`, fieldErrors);
  }
  const parsed = schema.safeParse(Object.fromEntries(entries));
  if (parsed.success) return parsed.data;
  const fieldErrors = fieldErrorsOf(parsed.error);
  const said = Object.entries(fieldErrors).map(([k, m]) => `${k}: ${m.join(" ")}`).join("; ");
  throw new AppError("BAD_REQUEST", `Some query parameters are invalid (${said}).`, fieldErrors);
}

async function parseBody(op: Operation, schema: z.ZodType, req: Request): Promise<unknown> {
  const max = op.maxBodyBytes ?? DEFAULT_MAX_BODY_BYTES;
  if (op.bodyMedia === "multipart/form-data") return checkBody(op, schema, await readFormBody(req, max, op.tooLargeMessage));
  return checkBody(op, schema, await readJsonBody(req, max, op.tooLargeMessage));
}

function toResponse(op: Operation, reply: { status: number; headers?: Record<string, string> } & Record<string, unknown>): Response {
  const spec = statusesOf(op)[reply.status];
  // An undeclared answer is a bug in the handler, which the types already refuse; never send it.
  if (!spec) throw new Error(`${op.method.toUpperCase()} ${op.path} answered ${reply.status}, which it does not declare`);
  const headers = new Headers(reply.headers);
  // Agents get small replies often: no caching and no gzip (Next honours no-transform), which cost
  // about a tenth of the app's CPU under many agents and saves nothing on a few hundred bytes.
  if (op.role === "agent") headers.set("cache-control", "no-store, no-transform");
  if ("json" in reply) {
    if (!spec.json) throw new Error(`${op.method.toUpperCase()} ${op.path} ${reply.status} declares no JSON body`);
    headers.set("content-type", "application/json; charset=utf-8");
    return new Response(JSON.stringify(reply.json, null, reply.indent ? 2 : undefined), { status: reply.status, headers });
  }
  if ("text" in reply) {
    const type = reply.type as TextMedia;
    if (!spec.text?.includes(type)) throw new Error(`${op.method.toUpperCase()} ${op.path} ${reply.status} declares no ${type} body`);
    // A handler may name the type's parameters itself (Prometheus's `version=0.0.4`), not another type.
    if (!headers.get("content-type")?.startsWith(`${type};`)) headers.set("content-type", `${type}; charset=utf-8`);
    return new Response(reply.text as string | ReadableStream<Uint8Array>, { status: reply.status, headers });
  }
  return new Response(null, { status: reply.status, headers });
}

/**
 * Serves one declared operation: refuses cross-site mutations, enforces its role, checks its path
 * id, query and body, and answers with one of its declared statuses and bodies. Errors leave as
 * the JSON error body (lib/http/handle-route.ts); a database that is away is a 503. The handler's
 * types come from the operation alone (NoInfer): letting TypeScript infer from the handler's own
 * answer widened its `status: 200` to `number`, which no declared status accepts.
 */
export function handle<const O extends Operation>(op: O, fn: (input: HandlerInput<NoInfer<O>>) => Promise<ReplyOf<NoInfer<O["responses"]>>>) {
  return route(async (req: Request, ctx?: { params: Promise<Record<string, string | string[] | undefined>> }) => {
    const authorization = req.headers.get("authorization");
    const actor = isSignedIn(op.role) ? await requireActor(USER_ROLE[op.role], authorization) : null;
    const agent = op.role === "agent" ? { credentialHash: await agentCredentialHash(authorization) } : null;
    const params: Record<string, string> = {};
    for (const [k, v] of Object.entries((await ctx?.params) ?? {})) if (typeof v === "string") params[k] = v;
    if (op.idOf && params.id !== undefined) params.id = uuidParam(params.id, op.idOf);
    const query = op.query ? parseQuery(op, op.query, new URL(req.url).searchParams) : undefined;
    const body = op.body ? await parseBody(op, op.body, req) : undefined;
    const input = { req, params, query, body, actor, agent } as HandlerInput<O>;
    return toResponse(op, (await fn(input)) as { status: number } & Record<string, unknown>);
  });
}

/**
 * An agent operation served by Next.js: the same handler the agent gateway calls
 * (lib/gateway/agent-handlers.ts), given the same checked input. In production the gateway answers
 * these paths before Next.js sees them; this route serves `next dev` and a server without the gateway.
 */
export function handleAgent<const O extends (typeof agentApi)[keyof typeof agentApi]>(op: O, fn: AgentHandler<O>) {
  return handle(op, ({ req, params, body, agent }) =>
    fn({ params, body, credentialHash: agent?.credentialHash ?? null, headers: req.headers, signal: req.signal, transport: "http" } as AgentInput<O>),
  );
}
