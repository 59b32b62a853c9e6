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
  MAX_HISTORY_OUTPUT_CHARS,
  registerRequestSchema,
  registerResponseSchema,
} from "../../probes/protocol/schemas";
import { err, defineOperation } from "./operation";

const group = "Agent protocol";
const notYours = { 403: err("The run belongs to another host."), 404: err("No such run.") };

/** The agent ⇄ server protocol: every body is a schema of probes/protocol/schemas.ts, parsed by both sides. */
export const agentApi = {
  register: defineOperation({
    method: "post",
    path: "/api/agent/register",
    group,
    summary: "Exchange a one-time registration token for the host's agent credential",
    role: "public",
    authNote: "the registration token in the body",
    body: registerRequestSchema,
    maxBodyBytes: 2 * 1024 * 1024,
    responses: {
      201: { description: "The credential (pba_…); store it, it is shown once.", json: registerResponseSchema },
      401: err("Unknown, used or expired token."),
      426: err("This server does not work with the agent's version (the message names both versions and how to upgrade); the token is not spent."),
      429: err("Too many failed registrations."),
    },
  }),
  heartbeat: defineOperation({
    method: "post",
    path: "/api/agent/heartbeat",
    group,
    summary: "Report liveness, profile and capabilities; learn which runs to cancel",
    role: "agent",
    body: heartbeatRequestSchema,
    maxBodyBytes: 2 * 1024 * 1024,
    responses: {
      200: { description: "Runs to cancel.", json: heartbeatResponseSchema },
      426: err("The capabilities name an agent this server does not work with (the message names both versions and how to upgrade)."),
    },
  }),
  claim: defineOperation({
    method: "post",
    path: "/api/agent/jobs/claim",
    group,
    summary: "Long-poll for the host's next queued run",
    role: "agent",
    body: claimRequestSchema,
    maxBodyBytes: 4096,
    responses: {
      200: { description: "A job, now RUNNING; or, with no job to give, the host's pending requests (`{ requests: { recheckTools: true } }`).", json: claimResponseSchema },
      204: { description: "Nothing queued and nothing requested within waitSec." },
      426: err("The protocol version the agent reported at its start is one this server no longer speaks: upgrade the agent."),
    },
  }),
  chunks: defineOperation({
    method: "post",
    path: "/api/agent/runs/{id}/chunks",
    group,
    summary: "Upload output chunks (idempotent per seq)",
    role: "agent",
    idOf: "run",
    body: chunksRequestSchema,
    // 64 chunks of 64 Ki characters, JSON-escaped: comfortably under 32 MiB.
    maxBodyBytes: 32 * 1024 * 1024,
    responses: { 200: { description: "What was stored.", json: chunksResponseSchema }, 409: err("The run is not claimed or already finished."), ...notYours },
  }),
  finish: defineOperation({
    method: "post",
    path: "/api/agent/runs/{id}/finish",
    group,
    summary: "Finish a run: the server parses the stored log",
    description:
      "`setup` is accepted only for a run whose job carried a setup, and only about what that setup asked for (400 naming the field otherwise). A credential revoked while an experiment run was in flight (its host deleted or re-registered) may still send this run's finish once with its setup report: only the report is recorded.",
    role: "agent",
    idOf: "run",
    body: finishRequestSchema,
    maxBodyBytes: 2 * 1024 * 1024,
    responses: {
      200: { description: "The run's final status.", json: finishResponseSchema },
      409: err("Chunks 0..lastSeq are not all stored yet: upload them, then retry."),
      413: err("The stored log is beyond the parser's caps: the run ends FAILED with the reason."),
      422: err("The parse ran out of time or memory: the run ends FAILED with the reason."),
      ...notYours,
    },
  }),
  history: defineOperation({
    method: "post",
    path: "/api/agent/history",
    group,
    summary: "Upload one finished day of the host's sysstat history (stored as a HISTORY run of the history probe)",
    role: "agent",
    body: historyDayRequestSchema,
    // sadf's JSON escaped once more inside the body (quotes, tabs, newlines): up to about twice its size.
    maxBodyBytes: 2 * MAX_HISTORY_OUTPUT_CHARS + 64 * 1024,
    tooLargeFields: ["output"],
    responses: {
      201: { description: "Stored as a new run.", json: historyDayResponseSchema },
      200: { description: "This host and day were stored before: the existing run.", json: historyDayResponseSchema },
      400: err("The day's output does not parse."),
      413: err("The output is too large."),
      422: err("The parse ran out of time or memory."),
    },
  }),
};
