import { z } from "zod";

/**
 * Who may call an operation. The handler (app/api/handle.ts) enforces it, the OpenAPI document
 * states it and the e2e access table (e2e/security/route-auth.spec.ts) tests it, all from here.
 */
export type Role = "public" | "viewer" | "operator" | "admin" | "agent";

/** Bodies other than JSON an operation may answer with; each is text (or an event stream). */
export type TextMedia = "text/csv" | "text/plain" | "text/event-stream" | "text/javascript";

export interface ResponseSpec {
  description: string;
  /** The application/json body. */
  json?: z.ZodType;
  /** Text media types this status may answer with instead of (or beside) JSON. */
  text?: readonly TextMedia[];
}

/**
 * One HTTP operation: everything the handler, the document and the access table need. A route
 * file is `export const GET = handle(operation, fn)`; nothing about the operation is written
 * anywhere else.
 */
export interface Operation {
  method: "get" | "post" | "put" | "patch" | "delete";
  /** OpenAPI form of the app/api path: /api/runs/{id} for app/api/runs/[id]/route.ts. */
  path: string;
  summary: string;
  description?: string;
  /** Section on /api-docs and in the document's tags. */
  group: string;
  role: Role;
  /** Extra words about who succeeds beyond the role (e.g. "its launcher or an admin"). */
  authNote?: string;
  /** What `{id}` names, for the 404 of an id that is not a UUID ("No run …"). */
  idOf?: string;
  query?: z.ZodObject;
  /** Query parameters sent empty (`?action=`) count as absent, as the filter forms send them. */
  blankQueryIsAbsent?: boolean;
  body?: z.ZodType;
  /**
   * How the body is sent: JSON (the default), or a multipart form whose fields (files as File
   * objects) the body schema checks, for uploads too large to carry inside JSON.
   */
  bodyMedia?: "application/json" | "multipart/form-data";
  /** Largest accepted body in bytes (413 beyond it); default 1 MiB. */
  maxBodyBytes?: number;
  /** The 413's words when the body is over maxBodyBytes, naming what is too large (default: the body's size in KiB). */
  tooLargeMessage?: string;
  /** Body fields whose length limit is a size limit: over it the answer is 413, not 400. */
  tooLargeFields?: readonly string[];
  /** The operation's own answers; the standard ones (statusesOf) are added to them. */
  responses: Record<number, ResponseSpec>;
}

/** Declares an operation, keeping its literal types so handle() can type the handler's input and answers. */
export function defineOperation<const O extends Operation>(op: O): O {
  return op;
}

export const DEFAULT_MAX_BODY_BYTES = 1024 * 1024;

/** The one error body every route answers with (lib/http/handle-route.ts errorResponse). */
export const errorBodySchema = z
  .object({
    error: z.string().describe("What went wrong, in words a person can act on."),
    fieldErrors: z.record(z.string(), z.array(z.string())).optional().describe("Per field (dotted path) messages for 400s."),
  })
  .meta({ id: "Error" });

export const err = (description: string): ResponseSpec => ({ description, json: errorBodySchema });

const isSignedIn = (role: Role) => role === "viewer" || role === "operator" || role === "admin";

/**
 * Every status an operation can answer: its own, plus those the machinery around it gives — the
 * handler's role check (401/403), input parsing (400, 413 for bodies), proxy.ts's 400 for
 * malformed %-escapes and the 404 for a non-UUID id in paths with parameters, the cross-site
 * refusal of mutations (403), the agents' rate limit (429) and a database that is away (503).
 * An operation's own description of a status wins.
 */
export function statusesOf(op: Operation): Record<number, ResponseSpec> {
  const std: Record<number, ResponseSpec> = {};
  const hasPathParams = /\{\w+\}/.test(op.path);
  if (op.body) {
    std[400] = err("The body is not JSON or a field is invalid (fieldErrors names it).");
    std[413] = err("The body is larger than the operation accepts.");
  }
  if (op.query) std[400] ??= err("A query parameter is invalid (fieldErrors names it).");
  if (hasPathParams) {
    std[400] ??= err("The address contains malformed %-escapes.");
    if (op.idOf) std[404] = err(`No ${op.idOf} with this id.`);
  }
  if (isSignedIn(op.role)) {
    std[401] = err("No or unknown credentials.");
    std[403] = err("Signed in, but the role or ownership does not allow it.");
  }
  if (op.role === "agent") {
    std[400] ??= err("The body is not JSON or a field is invalid (fieldErrors names it).");
    std[401] = err("No, unknown or revoked agent credential (the agent stops).");
    std[429] = err("Too many requests from this agent.");
  }
  if (op.method !== "get") std[403] ??= err("Cross-site request refused (Origin is not this server).");
  std[503] = err("The database is unavailable at the moment; retry shortly.");
  return { ...std, ...op.responses };
}

/** "operator role or above (its launcher or an admin)", for the document and /api-docs. */
export function authText(op: Pick<Operation, "role" | "authNote">): string {
  const base = op.role === "public" ? "public" : op.role === "agent" ? "agent credential" : `${op.role} role or above`;
  return op.authNote ? `${base} (${op.authNote})` : base;
}

/** "GET /api/runs/[id]": the app/api folder form, as the access table and route files name it. */
export function routeKey(op: Pick<Operation, "method" | "path">): string {
  return `${op.method.toUpperCase()} ${op.path.replace(/\{(\w+)\}/g, "[$1]")}`;
}
