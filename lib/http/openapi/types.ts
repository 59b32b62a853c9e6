import type { z } from "zod";

/** Who may call an operation: the same words as the access table of e2e/security/route-auth.spec.ts. */
export type ApiAuth = "public" | "viewer" | "operator" | "admin" | "agent";

export interface ApiResponse {
  description: string;
  /** The JSON body; omit for empty bodies or non-JSON ones described by contentType. */
  schema?: z.ZodType;
  /** Default application/json; e.g. text/csv, text/plain, text/event-stream. */
  contentType?: string;
}

/**
 * One HTTP operation of the public API. Routes validate with the very schemas named here (they
 * import them from the same modules), so the document cannot describe a different body than the
 * one a route accepts.
 */
export interface ApiOperation {
  method: "get" | "post" | "put" | "patch" | "delete";
  /** OpenAPI form of the app/api path: /api/runs/{id} for app/api/runs/[id]/route.ts. */
  path: string;
  summary: string;
  description?: string;
  /** Section on /api-docs and in the document's tags. */
  group: string;
  auth: ApiAuth;
  /** Extra words about who succeeds beyond the role (e.g. "its launcher or an admin"). */
  authNote?: string;
  query?: z.ZodObject;
  body?: z.ZodType;
  /** Request body media type when it is not JSON. */
  responses: Record<number, ApiResponse>;
}
