import { z } from "zod";
import { defineOperation } from "./operation";
import { auditQuerySchema } from "./schemas/audit";

/** The service itself: health, who is signed in, this document, the audit log. */
export const serviceApi = {
  health: defineOperation({
    method: "get",
    path: "/api/health",
    group: "Service",
    summary: "Liveness and database reachability",
    role: "public",
    responses: {
      200: { description: "Up.", json: z.object({ status: z.literal("ok"), db: z.literal("ok") }) },
      503: { description: "The database is down.", json: z.object({ status: z.literal("degraded"), db: z.literal("down") }) },
    },
  }),
  me: defineOperation({
    method: "get",
    path: "/api/me",
    group: "Service",
    summary: "Who is signed in (null when nobody)",
    role: "public",
    responses: { 200: { description: "The user or null.", json: z.object({ user: z.object({ email: z.string(), role: z.enum(["VIEWER", "OPERATOR", "ADMIN"]) }).nullable() }) } },
  }),
  openapi: defineOperation({
    method: "get",
    path: "/api/openapi.json",
    group: "Service",
    summary: "This document (OpenAPI 3.1)",
    role: "public",
    responses: { 200: { description: "The OpenAPI document.", json: z.record(z.string(), z.unknown()) } },
  }),
  audit: defineOperation({
    method: "get",
    path: "/api/admin/audit",
    group: "Admin",
    summary: "The audit log, filtered",
    role: "admin",
    query: auditQuerySchema,
    blankQueryIsAbsent: true,
    responses: {
      200: {
        description: "Newest first.",
        json: z.object({
          events: z.array(
            z.object({
              id: z.string(),
              at: z.string(),
              actorId: z.string().nullable(),
              actorEmail: z.string().nullable(),
              action: z.string(),
              targetType: z.string().nullable(),
              targetId: z.string().nullable(),
              ip: z.string().nullable(),
              details: z.unknown(),
            }),
          ),
        }),
      },
    },
  }),
};
