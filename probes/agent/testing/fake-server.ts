// A small real HTTP server speaking just enough of probes/protocol for the agent's tests. Test-only:
// nothing in the agent imports it, so it never reaches the bundle.
import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import type { AddressInfo } from "node:net";
import type { z } from "zod";
import {
  chunksRequestSchema,
  claimRequestSchema,
  type AgentRequests,
  finishRequestSchema,
  heartbeatRequestSchema,
  registerRequestSchema,
  type FinishRequest,
  type Job,
} from "../../protocol/schemas";

export class FakeAgentServer {
  url = "";
  readonly registrationToken = "test-registration-token-0001";
  readonly credential = `cred-${randomUUID()}`;
  readonly hostId = randomUUID();
  jobs: Job[] = [];
  /** Requests answered in claims when no job is queued (probes/protocol agentRequestsSchema). */
  requests: AgentRequests[] = [];
  readonly chunks = new Map<string, Map<number, string>>();
  readonly finishes = new Map<string, FinishRequest>();
  readonly cancelRequested = new Set<string>();
  readonly registrations: z.infer<typeof registerRequestSchema>[] = [];
  readonly heartbeats: z.infer<typeof heartbeatRequestSchema>[] = [];
  readonly log: string[] = [];
  duplicates = 0;
  /** Every request answers 503 while true. */
  down = false;
  /** The next n requests answer 503. */
  failNext = 0;
  revoked = false;
  /** Set: register and heartbeats carrying capabilities answer 426 with this message (a version the server refuses). */
  incompatible: string | null = null;
  /** Set: claims answer 426 with this message (a server upgraded under a running agent). */
  incompatibleClaims: string | null = null;
  /** Finish requests answer 503 while true (the rest works): a finish then waits in the spool. */
  refuseFinishes = false;
  /** Longest a claim is held open, whatever waitSec says (tests must be quick). */
  claimHoldMs = 300;
  private server: Server | null = null;

  async start(): Promise<this> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server?.listen(0, "127.0.0.1", resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
    return this;
  }

  async close(): Promise<void> {
    this.server?.closeAllConnections();
    await new Promise<void>((resolve) => this.server?.close(() => resolve()));
  }

  /** The run's output in seq order. */
  output(runId: string): string {
    return this.seqs(runId).map((s) => this.chunks.get(runId)?.get(s)).join("");
  }

  seqs(runId: string): number[] {
    return [...(this.chunks.get(runId)?.keys() ?? [])].sort((a, b) => a - b);
  }

  async waitFor(cond: () => boolean, timeoutMs = 10_000): Promise<void> {
    const end = Date.now() + timeoutMs;
    while (!cond()) {
      if (Date.now() > end) throw new Error("timed out waiting for the fake server");
      await new Promise((r) => setTimeout(r, 10));
    }
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let raw = "";
    for await (const part of req) raw += part;
    const path = req.url ?? "";
    const send = (status: number, body?: unknown) => {
      this.log.push(`${path} ${status}`);
      res.writeHead(status, body === undefined ? {} : { "content-type": "application/json" });
      res.end(body === undefined ? undefined : JSON.stringify(body));
    };
    if (this.down || this.failNext > 0) {
      if (this.failNext > 0) this.failNext--;
      return send(503, { error: "maintenance" });
    }
    let body: unknown;
    try {
      body = JSON.parse(raw);
    } catch {
      return send(400, { error: "body is not JSON" });
    }
    const parse = <T>(schema: z.ZodType<T>): T | null => {
      const r = schema.safeParse(body);
      if (!r.success) send(400, { error: r.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join("; ") });
      return r.success ? r.data : null;
    };
    if (path === "/api/agent/register") {
      const b = parse(registerRequestSchema);
      if (!b) return;
      if (this.incompatible) return send(426, { error: this.incompatible });
      if (b.registrationToken !== this.registrationToken) return send(401, { error: "registration token is unknown, used or expired" });
      this.registrations.push(b);
      return send(201, { hostId: this.hostId, hostName: "test-host", credential: this.credential });
    }
    if (this.revoked || req.headers.authorization !== `Bearer ${this.credential}`) return send(401, { error: "credential revoked" });
    if (path === "/api/agent/heartbeat") {
      const b = parse(heartbeatRequestSchema);
      if (!b) return;
      if (this.incompatible && b.capabilities) return send(426, { error: this.incompatible });
      this.heartbeats.push(b);
      return send(200, { cancelRunIds: b.runningRunIds.filter((id) => this.cancelRequested.has(id)) });
    }
    if (path === "/api/agent/jobs/claim") {
      const b = parse(claimRequestSchema);
      if (!b) return;
      if (this.incompatibleClaims) return send(426, { error: this.incompatibleClaims });
      const end = Date.now() + Math.min(b.waitSec * 1000, this.claimHoldMs);
      while (this.jobs.length === 0 && this.requests.length === 0 && Date.now() < end && !req.destroyed) await new Promise((r) => setTimeout(r, 10));
      const job = this.jobs.shift();
      const requests = job ? undefined : this.requests.shift();
      if (requests) return send(200, { requests });
      return job ? send(200, job) : send(204);
    }
    const m = /^\/api\/agent\/runs\/([^/]+)\/(chunks|finish)$/.exec(path);
    if (m?.[1] && m[2] === "chunks") {
      const b = parse(chunksRequestSchema);
      if (!b) return;
      const run = this.chunks.get(m[1]) ?? new Map<number, string>();
      this.chunks.set(m[1], run);
      let stored = 0;
      let duplicates = 0;
      for (const c of b.chunks) {
        if (run.has(c.seq)) {
          duplicates++;
        } else {
          run.set(c.seq, c.data);
          stored++;
        }
      }
      this.duplicates += duplicates;
      return send(200, { stored, duplicates, cancelRequested: this.cancelRequested.has(m[1]) });
    }
    if (m?.[1] && m[2] === "finish") {
      if (this.refuseFinishes) return send(503, { error: "maintenance" });
      const b = parse(finishRequestSchema);
      if (!b) return;
      const have = this.chunks.get(m[1]);
      const missing: number[] = [];
      for (let s = 0; s <= b.lastSeq; s++) if (!have?.has(s)) missing.push(s);
      if (missing.length > 0) return send(409, { error: "chunks are missing", missing });
      this.finishes.set(m[1], b);
      return send(200, { status: "FINISHED" });
    }
    send(404, { error: "not found" });
  }
}
