import type { z } from "zod";
import { HttpError, type AgentHttpClient } from "./http-client";
import {
  CLAIM_WAIT_SEC,
  chunksResponseSchema,
  claimRequestsResponseSchema,
  heartbeatResponseSchema,
  historyDayResponseSchema,
  jobSchema,
  registerResponseSchema,
  type Capabilities,
  type AgentRequests,
  type Chunk,
  type FinishRequest,
  type HistoryDayRequest,
  type Job,
} from "../protocol/schemas";
import { SOCKET_CLAIM_WAIT_SEC } from "../protocol/agent-socket";

function check<T>(schema: z.ZodType<T>, body: unknown, what: string): T {
  const r = schema.safeParse(body);
  if (!r.success) {
    const issue = r.error.issues[0];
    throw new HttpError("protocol", 200, `unexpected ${what} response (${issue?.path.join(".") || "body"}: ${issue?.message})`, body);
  }
  return r.data;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** The longest claim wait servers before the 50 s one accept. */
const OLD_SERVER_MAX_WAIT_SEC = 25;

/** The agent endpoints of probes/protocol, with their responses validated. */
export class AgentApi {
  /** Lowered once a server refuses the agent's wait (it predates the longer one). */
  private maxClaimWaitSec = Number.POSITIVE_INFINITY;

  constructor(readonly http: AgentHttpClient) {}

  /** Retries while the server is unreachable: the agent may start before the dashboard does. */
  async register(
    body: { registrationToken: string; profile: Record<string, unknown>; capabilities: Capabilities },
    signal?: AbortSignal,
  ): Promise<z.infer<typeof registerResponseSchema>> {
    const res = await this.http.postWithRetry("/api/agent/register", body, { auth: false, signal });
    return check(registerResponseSchema, res.body, "register");
  }

  /** One attempt: the next beat is the retry. */
  async heartbeat(
    body: { runningRunIds: string[]; profile?: Record<string, unknown>; capabilities?: Capabilities },
    signal?: AbortSignal,
  ): Promise<string[]> {
    const res = await this.http.post("/api/agent/heartbeat", body, { signal, timeoutMs: 10_000 });
    return check(heartbeatResponseSchema, res.body, "heartbeat").cancelRunIds;
  }

  /**
   * Long poll: null when no job came within waitSec. A job whose body is malformed but names a
   * run is still returned (with what could be read) so that the guard refuses it and the run is
   * finished with a reason instead of hanging as RUNNING on the server.
   */
  async claim(waitSec: number = CLAIM_WAIT_SEC, signal?: AbortSignal): Promise<Job | { requests: AgentRequests } | null> {
    // Over the socket the server answers the moment there is work (the push), so the wait is long.
    const viaSocket = this.http.transportInUse() === "socket";
    const wait = viaSocket ? SOCKET_CLAIM_WAIT_SEC : Math.min(waitSec, this.maxClaimWaitSec);
    let res;
    try {
      res = await this.http.postWithRetry("/api/agent/jobs/claim", { waitSec: wait }, { signal, timeoutMs: (wait + 15) * 1000 });
    } catch (err) {
      // The socket's wait sent over HTTP (the server lost its socket meanwhile): not an old server.
      if (viaSocket && err instanceof HttpError && err.status === 400 && this.http.transportInUse() === "http") return this.claim(waitSec, signal);
      // A server older than this agent takes at most 30 s: wait that long from now on.
      if (!(err instanceof HttpError && err.status === 400 && wait > OLD_SERVER_MAX_WAIT_SEC && /waitSec/.test(JSON.stringify(err.body)))) throw err;
      this.maxClaimWaitSec = OLD_SERVER_MAX_WAIT_SEC;
      return this.claim(waitSec, signal);
    }
    if (res.status === 204 || res.body === null) return null;
    // No job but something else to do (re-detect the tools …).
    const requests = claimRequestsResponseSchema.safeParse(res.body);
    if (requests.success && !("runId" in (res.body as object))) return requests.data;
    const parsed = jobSchema.safeParse(res.body);
    if (parsed.success) return parsed.data;
    const b = res.body as { runId?: unknown; probe?: unknown; params?: unknown };
    if (typeof b === "object" && typeof b.runId === "string" && UUID.test(b.runId)) {
      const params = typeof b.params === "object" && b.params !== null && !Array.isArray(b.params) ? (b.params as Record<string, unknown>) : {};
      return { runId: b.runId, probe: typeof b.probe === "string" ? b.probe.slice(0, 50) : "", params };
    }
    return check(jobSchema, res.body, "claim");
  }

  async uploadChunks(runId: string, chunks: Chunk[], signal?: AbortSignal): Promise<{ cancelRequested: boolean; duplicates: number }> {
    const res = await this.http.post(`/api/agent/runs/${encodeURIComponent(runId)}/chunks`, { chunks }, { signal });
    const r = check(chunksResponseSchema, res.body, "chunks");
    return { cancelRequested: r.cancelRequested, duplicates: r.duplicates };
  }

  async finish(runId: string, body: FinishRequest, signal?: AbortSignal): Promise<void> {
    await this.http.post(`/api/agent/runs/${encodeURIComponent(runId)}/finish`, body, { signal });
  }

  /** One attempt (the next history check is the retry); parsing a day on the server takes a while. */
  async uploadHistory(body: HistoryDayRequest, signal?: AbortSignal): Promise<{ runId: string; created: boolean }> {
    const res = await this.http.post("/api/agent/history", body, { signal, timeoutMs: 120_000 });
    return check(historyDayResponseSchema, res.body, "history");
  }
}
