// What each operation of the agent protocol does, written once: the Next.js routes of
// app/api/agent/* and the agent gateway (HTTP and the agent socket) call these same functions with
// the same checked input, so a change here reaches every way an agent can connect.
import type { z } from "zod";
import type { ReplyOf } from "../api/reply";
import { agentApi } from "../api/agent";
import { AppError } from "../http/app-error";
import { assertNotThrottled, recordFailure, type ThrottleKey } from "../http/auth-throttle";
import { clientAddress } from "../http/client-address";
import { CLAIM_WAIT_SEC } from "../../probes/protocol/schemas";
import { acceptFinalReport } from "../server/agent/accept-final-report";
import { agentHostOf, authenticateAgent, runOfHost } from "../server/agent/authenticate-agent";
import { claimJob } from "../server/agent/claim-job";
import { heartbeat } from "../server/agent/heartbeat";
import { ingestChunks } from "../server/agent/ingest-chunks";
import { registerAgent, registrationTokenIsLive } from "../server/agent/register-agent";
import { storeHistoryDay } from "../server/agent/store-history-day";
import { recordAudit } from "../server/audit/record-audit";
import { finishRun } from "../server/runs/finish-run";
import { jobSetupForRun } from "../server/experiments/job-setup";

type AgentOps = typeof agentApi;

/** How the request arrived: an HTTP request (Next's route or the gateway's) or a frame on the agent socket. */
export type AgentTransport = "http" | "socket";

/** What a handler is given, already checked against its operation (the body by its schema, `id` as a UUID). */
export interface AgentInput<O extends AgentOps[keyof AgentOps]> {
  params: { id?: string };
  body: O extends { body: infer B extends z.ZodType } ? z.output<B> : undefined;
  /** The credential's hash, counted against the agent's rate limit; null for register. */
  credentialHash: O["role"] extends "agent" ? string : null;
  headers: Headers;
  /** Aborted when the client goes away (the request, or the socket). */
  signal: AbortSignal;
  transport: AgentTransport;
}

export type AgentHandler<O extends AgentOps[keyof AgentOps]> = (input: AgentInput<O>) => Promise<ReplyOf<O["responses"]>>;

const runId = (params: { id?: string }): string => {
  if (!params.id) throw new AppError("NOT_FOUND", "No such run.");
  return params.id;
};

export const agentHandlers: { [K in keyof AgentOps]: AgentHandler<AgentOps[K]> } = {
  async register({ headers, body }) {
    // Only failed registrations count, per real client address, and a blocked address still
    // registers good tokens: a fleet behind one NAT enrols freely, and how many tokens exist is
    // bounded per operator when they are issued.
    const key: ThrottleKey = { policy: "registerClient", id: clientAddress(headers) };
    try {
      await assertNotThrottled([key]);
    } catch (err) {
      if (!(await registrationTokenIsLive(body.registrationToken))) throw err;
    }
    try {
      const registered = await registerAgent(body);
      await recordAudit({ actor: null, action: "host.register", target: { type: "host", id: registered.hostId }, ip: key.id, details: { hostName: registered.hostName } });
      return { status: 201, json: registered };
    } catch (err) {
      if (err instanceof AppError && err.code === "UNAUTHORIZED") await recordFailure([key]);
      throw err;
    }
  },

  async heartbeat({ credentialHash, body }) {
    const host = await authenticateAgent(credentialHash);
    return { status: 200, json: await heartbeat(host.id, body) };
  },

  async claim({ credentialHash, body: { waitSec }, signal, transport }) {
    // Over HTTP a proxy may cut a longer request; the socket's pings keep it alive instead.
    const wait = transport === "http" ? Math.min(waitSec, CLAIM_WAIT_SEC) : waitSec;
    const outcome = await claimJob({ credentialHash, waitSec: wait, signal });
    if (!outcome) return { status: 204 };
    if ("requests" in outcome) return { status: 200, json: { requests: outcome.requests } };
    const { job } = outcome;
    const setup = await jobSetupForRun({ experimentId: job.experiment_id, armIndex: job.arm_index });
    return { status: 200, json: { runId: job.id, probe: job.probe, params: job.params, ...(setup ? { setup } : {}) } };
  },

  async chunks({ credentialHash, params, body: { chunks } }) {
    return { status: 200, json: await ingestChunks({ credentialHash, runId: runId(params), chunks }) };
  },

  async finish({ credentialHash, params, body }) {
    const id = runId(params);
    const host = await agentHostOf(credentialHash);
    // A credential no host holds: only the setup report of a run it had in flight when it was revoked.
    if (!host) return { status: 200, json: await acceptFinalReport({ runId: id, credentialHash, finish: body }) };
    await runOfHost(id, host.id);
    return { status: 200, json: await finishRun({ runId: id, finish: body }) };
  },

  /** 201 with the new run, or 200 naming the run already stored for this host and day. */
  async history({ credentialHash, body }) {
    const host = await authenticateAgent(credentialHash);
    const stored = await storeHistoryDay({ hostId: host.id, body });
    return { status: stored.created ? 201 : 200, json: stored };
  },
};
