import { pgPool } from "../../pg-pool";
import { notifySql } from "../../notifications";
import type { AgentRequests } from "../../../probes/protocol/schemas";
import { instance } from "../../instance/instance";
import { metrics } from "../../instance/metrics";
import { unknownCredential } from "./unknown-credential";
import { AGENT_POLICY, assertAgentCompatible } from "./compatibility";

interface ClaimedRow {
  id: string;
  probe: string;
  params: Record<string, unknown>;
  experiment_id: string | null;
  arm_index: number | null;
}

/**
 * One round trip of plain SQL per poll, since every idle agent of the fleet sends one: checks the
 * credential, takes the host's oldest queued run (SKIP LOCKED lets several claimers race safely)
 * and tells the run's watchers, and says whether the host has pending requests. No row means the
 * credential no longer belongs to the host (revoked, or the host was deleted). An agent whose
 * reported protocol version this server no longer speaks (the server was upgraded under it) is
 * given no job: its claim is refused with the upgrade to run.
 */
const CLAIM_SQL = `
  WITH host AS (
    SELECT id, tools_recheck_requested_at > COALESCE(tools_checked_at, '-infinity') AS recheck,
      agent_version, agent_protocol_version,
      COALESCE(agent_protocol_version, 1) BETWEEN $3::int AND $4::int AS compatible
    FROM hosts WHERE id = $1::uuid AND agent_credential_hash = $2
  ), claimed AS (
    UPDATE probe_runs SET status = 'RUNNING', started_at = now(), last_activity_at = now(), updated_at = now()
    WHERE id = (
      SELECT id FROM probe_runs
      WHERE host_id = (SELECT id FROM host WHERE compatible) AND status = 'QUEUED'
      ORDER BY created_at
      FOR UPDATE SKIP LOCKED
      LIMIT 1
    )
    RETURNING id, probe, params, experiment_id, arm_index
  )
  SELECT host.recheck, host.compatible, host.agent_version, host.agent_protocol_version, c.id::text AS id, c.probe::text AS probe, c.params, c.experiment_id::text AS experiment_id, c.arm_index,
         CASE WHEN c.id IS NOT NULL THEN pg_notify(${notifySql.runChannel("c.id")}, ${notifySql.status()})::text END AS notified
  FROM host LEFT JOIN claimed c ON true`;

/** What a claim answers: a job, the host's pending requests (see agentRequestsSchema), or nothing. */
export type ClaimOutcome = { job: ClaimedRow } | { requests: AgentRequests } | null;

/**
 * A queued job first (a request can wait for the run to end), then the host's requests. A tools
 * re-check stays pending until a report of the tools (a heartbeat with capabilities) is newer than
 * the request, so a report that fails to arrive is asked for again.
 */
async function claimOnce(hostId: string, credentialHash: string): Promise<ClaimOutcome> {
  const { min, max } = AGENT_POLICY.protocol;
  const { rows } = await pgPool().query<ClaimedRow & { recheck: boolean | null; compatible: boolean; agent_version: string | null; agent_protocol_version: number | null }>(
    CLAIM_SQL,
    [hostId, credentialHash, min, max],
  );
  const row = rows[0];
  if (!row) {
    instance().knownAgents.forget(credentialHash);
    throw unknownCredential();
  }
  if (!row.compatible) assertAgentCompatible({ agentVersion: row.agent_version ?? "unknown", protocolVersion: row.agent_protocol_version ?? undefined });
  if (row.id) return { job: { id: row.id, probe: row.probe, params: row.params, experiment_id: row.experiment_id, arm_index: row.arm_index } };
  return row.recheck ? { requests: { recheckTools: true } } : null;
}

/**
 * Long-polls end up to this share of their wait early, at random: a fleet that started in step
 * (all agents reconnecting after a server restart) spreads out over a few polls instead of
 * arriving in one burst every wait.
 */
const WAIT_JITTER = 0.2;

export interface ClaimRequest {
  /** The SHA-256 of the agent credential (lib/auth/secret-token.ts). */
  credentialHash: string;
  waitSec: number;
  signal?: AbortSignal;
}

/**
 * Long-poll: returns a job as soon as one is queued for the host (or the host's pending requests
 * as soon as an operator makes one), or null after about waitSec. The waiter is registered (and
 * the instance's LISTEN in place) before the first claim statement, so a run queued at any moment
 * of the request wakes it; nothing re-checks on a timer per request. Liveness is this request:
 * the host's last_seen_at is stamped in batches (touch-hosts.ts).
 */
export async function claimJob({ credentialHash, waitSec, signal }: ClaimRequest): Promise<ClaimOutcome> {
  const hostId = await instance().knownAgents.hostIdFor(credentialHash);
  if (!hostId) throw unknownCredential();
  instance().hostToucher.touch(hostId);
  if (waitSec <= 0) return claimOnce(hostId, credentialHash);
  let woken = false;
  let wake: () => void = () => undefined;
  const waited = metrics().claimWaitSeconds.startTimer();
  let outcome: ClaimOutcome = null;
  let failed = false;
  const remove = await instance().jobWaiters.add(hostId, () => {
    woken = true;
    wake();
  });
  try {
    const deadline = Date.now() + waitSec * 1000 * (1 - WAIT_JITTER * Math.random());
    for (;;) {
      woken = false;
      outcome = await claimOnce(hostId, credentialHash);
      if (outcome) return outcome;
      if (signal?.aborted) return null;
      // A notification that came during the claim statement is not lost: `woken` is already set.
      if (!woken) {
        await new Promise<void>((resolve) => {
          const t = setTimeout(resolve, Math.max(0, deadline - Date.now()));
          const done = () => (clearTimeout(t), signal?.removeEventListener("abort", done), resolve());
          wake = done;
          signal?.addEventListener("abort", done, { once: true });
        });
        wake = () => undefined;
      }
      if (!woken || signal?.aborted || Date.now() >= deadline) return null;
    }
  } catch (err) {
    failed = true;
    throw err;
  } finally {
    remove();
    waited({ outcome: failed ? "error" : !outcome ? "empty" : "job" in outcome ? "job" : "requests" });
  }
}
