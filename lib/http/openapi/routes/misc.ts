import { z } from "zod";
import { auditQuerySchema } from "../../../server/audit/list-audit";
import { authErrors, err } from "../common";
import type { ApiOperation } from "../types";

export const miscOperations: ApiOperation[] = [
  {
    method: "get",
    path: "/api/health",
    group: "Service",
    summary: "Liveness and database reachability",
    auth: "public",
    responses: {
      200: { description: "Up.", schema: z.object({ status: z.literal("ok"), db: z.literal("ok") }) },
      503: { description: "The database is down.", schema: z.object({ status: z.literal("degraded"), db: z.literal("down") }) },
    },
  },
  {
    method: "get",
    path: "/api/me",
    group: "Service",
    summary: "Who is signed in (null when nobody)",
    auth: "public",
    responses: { 200: { description: "The user or null.", schema: z.object({ user: z.object({ email: z.string(), role: z.enum(["VIEWER", "OPERATOR", "ADMIN"]) }).nullable() }) } },
  },
  {
    method: "get",
    path: "/api/openapi.json",
    group: "Service",
    summary: "This document (OpenAPI 3.1)",
    auth: "public",
    responses: { 200: { description: "The OpenAPI document.", schema: z.record(z.string(), z.unknown()) } },
  },
  {
    method: "get",
    path: "/api/admin/audit",
    group: "Admin",
    summary: "The audit log, filtered",
    auth: "admin",
    query: auditQuerySchema,
    responses: {
      200: {
        description: "Newest first.",
        schema: z.object({
          events: z.array(
            z.object({ id: z.string(), at: z.string(), actorId: z.string().nullable(), actorEmail: z.string().nullable(), action: z.string(), targetType: z.string().nullable(), targetId: z.string().nullable(), ip: z.string().nullable(), details: z.unknown() }),
          ),
        }),
      },
      400: err("A filter is invalid."),
      ...authErrors,
    },
  },
];
