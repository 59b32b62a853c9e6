import {
  chunksRequestSchema,
  chunksResponseSchema,
  claimRequestSchema,
  claimResponseSchema,
  finishRequestSchema,
  finishResponseSchema,
  heartbeatRequestSchema,
  heartbeatResponseSchema,
  historyDayRequestSchema,
  historyDayResponseSchema,
  registerRequestSchema,
  registerResponseSchema,
} from "../../../../probes/protocol/schemas";
import { err } from "../common";
import type { ApiOperation } from "../types";

const agentErrors = { 401: err("No, unknown or revoked agent credential (the agent stops)."), 429: err("Too many requests from this agent.") };
const notYours = { 403: err("The run belongs to another host."), 404: err("No such run.") };

/** The agent ⇄ server protocol: every body is a schema of probes/protocol/schemas.ts, parsed by both sides. */
export const agentOperations: ApiOperation[] = [
  {
    method: "post",
    path: "/api/agent/register",
    group: "Agent protocol",
    summary: "Exchange a one-time registration token for the host's agent credential",
    auth: "public",
    authNote: "the registration token in the body",
    body: registerRequestSchema,
    responses: { 201: { description: "The credential (pba_…); store it, it is shown once.", schema: registerResponseSchema }, 401: err("Unknown, used or expired token."), 429: err("Too many failed registrations.") },
  },
  {
    method: "post",
    path: "/api/agent/heartbeat",
    group: "Agent protocol",
    summary: "Report liveness, profile and capabilities; learn which runs to cancel",
    auth: "agent",
    body: heartbeatRequestSchema,
    responses: { 200: { description: "Runs to cancel.", schema: heartbeatResponseSchema }, ...agentErrors },
  },
  {
    method: "post",
    path: "/api/agent/jobs/claim",
    group: "Agent protocol",
    summary: "Long-poll for the host's next queued run",
    auth: "agent",
    body: claimRequestSchema,
    responses: {
      200: { description: "A job, now RUNNING; or, with no job to give, the host's pending requests (`{ requests: { recheckTools: true } }`).", schema: claimResponseSchema },
      204: { description: "Nothing queued and nothing requested within waitSec." },
      ...agentErrors,
    },
  },
  {
    method: "post",
    path: "/api/agent/runs/{id}/chunks",
    group: "Agent protocol",
    summary: "Upload output chunks (idempotent per seq)",
    auth: "agent",
    body: chunksRequestSchema,
    responses: { 200: { description: "What was stored.", schema: chunksResponseSchema }, 409: err("The run is not claimed or already finished."), ...notYours, ...agentErrors },
  },
  {
    method: "post",
    path: "/api/agent/runs/{id}/finish",
    group: "Agent protocol",
    summary: "Finish a run: the server parses the stored log",
    auth: "agent",
    body: finishRequestSchema,
    responses: { 200: { description: "The run's final status.", schema: finishResponseSchema }, 409: err("Chunks 0..lastSeq are not all stored yet: upload them, then retry."), ...notYours, ...agentErrors },
  },
  {
    method: "post",
    path: "/api/agent/history",
    group: "Agent protocol",
    summary: "Upload one finished day of the host's sysstat history (stored as a HISTORY run of the history probe)",
    auth: "agent",
    body: historyDayRequestSchema,
    responses: {
      201: { description: "Stored as a new run.", schema: historyDayResponseSchema },
      200: { description: "This host and day were stored before: the existing run.", schema: historyDayResponseSchema },
      400: err("The day's output does not parse."),
      413: err("The output is too large."),
      ...agentErrors,
    },
  },
];
