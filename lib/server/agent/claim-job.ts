import { pgPool } from "../../pg-pool";
import type { AgentRequests } from "../../../probes/protocol/schemas";
import { jobWaiters } from "./job-waiters";

interface ClaimedRow {
  id: string;
  probe: string;
  params: Record<string, unknown>;
  experiment_id: string | null;
  arm_index: number | null;
}

/**
 * Takes the host's oldest queued run (SKIP LOCKED lets several claimers race safely) and tells
 * the run's watchers, in one round trip of plain SQL: this runs on every long-poll.
 */
const CLAIM_SQL = `
  WITH claimed AS (
    UPDATE probe_runs SET status = 'RUNNING', started_at = now(), last_activity_at = now(), updated_at = now()
    WHERE id = (
      SELECT id FROM probe_runs
      WHERE host_id = $1::uuid AND status = 'QUEUED'
      ORDER BY created_at
      FOR UPDATE SKIP LOCKED
      LIMIT 1
    )
    RETURNING id, probe, params, experiment_id, arm_index
  )
  SELECT id::text, probe::text, params, experiment_id::text, arm_index,
         pg_notify('pb_run_' || replace(id::text, '-', ''), 'status')::text AS notified
  FROM claimed`;

async function claimOnce(hostId: string): Promise<ClaimedRow | null> {
  const { rows } = await pgPool().query<ClaimedRow>(CLAIM_SQL, [hostId]);
  const row = rows[0];
  return row ? { id: row.id, probe: row.probe, params: row.params, experiment_id: row.experiment_id, arm_index: row.arm_index } : null;
}

/** What a claim answers: a job, the host's pending requests (see agentRequestsSchema), or nothing. */
export type ClaimOutcome = { job: ClaimedRow } | { requests: AgentRequests } | null;

/**
 * The host's pending requests; null when there are none. A tools re-check stays pending until
 * a report of the tools (a heartbeat with capabilities) is newer than the request, so a report
 * that fails to arrive is asked for again.
 */
async function pendingRequests(hostId: string): Promise<AgentRequests | null> {
  const { rows } = await pgPool().query(
    `SELECT 1 FROM hosts WHERE id = $1::uuid AND tools_recheck_requested_at > COALESCE(tools_checked_at, '-infinity')`,
    [hostId],
  );
  return rows.length > 0 ? { recheckTools: true } : null;
}

/** A queued job first (a request can wait for the run to end), then the host's requests. */
async function claimOnceOrRequests(hostId: string): Promise<ClaimOutcome> {
  const job = await claimOnce(hostId);
  if (job) return { job };
  const requests = await pendingRequests(hostId);
  return requests ? { requests } : null;
}

/**
 * Long-poll: returns a job as soon as one is queued for the host (or the host's pending requests
 * as soon as an operator makes one), or null after waitSec. The
 * waiter is registered (and the instance's LISTEN in place) before the first claim query, so a
 * run queued at any moment of the request wakes it; nothing re-checks on a timer per request.
 */
export async function claimJob(hostId: string, waitSec: number, signal?: AbortSignal): Promise<ClaimOutcome> {
  if (waitSec <= 0) return claimOnceOrRequests(hostId);
  let woken = false;
  let wake: () => void = () => undefined;
  const remove = await jobWaiters().add(hostId, () => {
    woken = true;
    wake();
  });
  try {
    const deadline = Date.now() + waitSec * 1000;
    for (;;) {
      woken = false;
      const outcome = await claimOnceOrRequests(hostId);
      if (outcome) return outcome;
      if (signal?.aborted) return null;
      // A notification that came during the claim query is not lost: `woken` is already set.
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
  } finally {
    remove();
  }
}
