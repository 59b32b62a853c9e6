import { z } from "zod";
import { defineOperation, err } from "./operation";
import { auditQuerySchema } from "./schemas/audit";

const check = z.enum(["ok", "failed", "pending"]);
const readinessSchema = z.object({
  status: z.enum(["ready", "not-ready"]),
  /** The first check that failed, in words; absent when ready. */
  reason: z.string().optional(),
  checks: z.object({ database: check, migrations: check, instance: check }),
});

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
  healthLive: defineOperation({
    method: "get",
    path: "/api/health/live",
    group: "Service",
    summary: "Liveness: the process answers (no database query)",
    description: "For a load balancer's or orchestrator's liveness probe: restart the process when this fails.",
    role: "public",
    responses: { 200: { description: "The process is up.", json: z.object({ status: z.literal("ok") }) } },
  }),
  healthReady: defineOperation({
    method: "get",
    path: "/api/health/ready",
    group: "Service",
    summary: "Readiness: database reachable, migrations applied, instance started",
    description: "For a load balancer's readiness check: send traffic only while this answers 200. The database is given 2 s.",
    role: "public",
    responses: {
      200: { description: "Ready.", json: readinessSchema },
      503: { description: "Not ready; `reason` says why.", json: readinessSchema },
    },
  }),
  metrics: defineOperation({
    method: "get",
    path: "/metrics",
    group: "Service",
    summary: "Prometheus metrics (text exposition format)",
    description:
      "Runs by status, queue age, hosts online, chunk and telemetry ingest, claim waits, live viewers, agent sockets, parse durations and the process's own figures. With METRICS_TOKEN set it needs `Authorization: Bearer <METRICS_TOKEN>`.",
    role: "public",
    authNote: "a bearer token when METRICS_TOKEN is set",
    responses: {
      200: { description: "The metrics.", text: ["text/plain"] },
      401: err("METRICS_TOKEN is set and the request does not carry it as its bearer token."),
    },
  }),
  version: defineOperation({
    method: "get",
    path: "/api/version",
    group: "Service",
    summary: "This server's release, schema and the agent versions it accepts",
    description:
      "For upgrades: every instance of one release answers the same. `agent.protocol.accepted` is the range of agent protocol versions this server works with; agents outside it, or older than `agent.minimum`, are refused with 426 and the upgrade line.",
    role: "public",
    responses: {
      200: {
        description: "The versions.",
        json: z.object({
          server: z.string(),
          schema: z.string().nullable(),
          agent: z.object({
            current: z.string(),
            minimum: z.string(),
            protocol: z.object({ current: z.number().int(), accepted: z.object({ min: z.number().int(), max: z.number().int() }) }),
          }),
        }),
      },
    },
  }),
  me: defineOperation({
    method: "get",
    path: "/api/me",
    group: "Service",
    summary: "Who is signed in (null when nobody), and how many alerts are open",
    description: "The header's one request per page: the user, and for a signed-in user the open alerts by kind (the Alerts link's badge); `openAlerts` is null when nobody is signed in.",
    role: "public",
    responses: {
      200: {
        description: "The user or null.",
        json: z.object({
          user: z.object({ email: z.string(), role: z.enum(["VIEWER", "OPERATOR", "ADMIN"]) }).nullable(),
          openAlerts: z.object({ regressions: z.number().int(), improvements: z.number().int() }).nullable(),
        }),
      },
    },
  }),
  cli: defineOperation({
    method: "get",
    path: "/api/cli/probebook.cjs",
    group: "Service",
    summary: "The command-line client as one file that runs with Node ≥ 20",
    description:
      "`npx probebook` without a checkout: `curl -fsSLo probebook.cjs <server>/api/cli/probebook.cjs && node probebook.cjs login --server <server>`. Built by `npm run build:cli` (and by `npm start` when missing); the header `X-Checksum-Sha256` is the file's SHA-256.",
    role: "public",
    responses: {
      200: { description: "The CLI bundle (CommonJS, with a `#!/usr/bin/env node` line).", text: ["text/javascript"] },
      404: err("Not built on this server yet: `npm run build:cli` writes dist/cli/probebook.cjs."),
    },
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
