import { db } from "../../db";
import { hostChannel, pgListener } from "../realtime/pg-listener";
import { notifyRun } from "../realtime/notify";
import type { AgentRequests } from "../../../probes/protocol/schemas";

interface ClaimedRow {
  id: string;
  probe: string;
  params: Record<string, unknown>;
  experiment_id: string | null;
  arm_index: number | null;
}

/** What a claim answers: a job, the host's pending requests (see agentRequestsSchema), or nothing. */
export type ClaimOutcome = { job: ClaimedRow } | { requests: AgentRequests } | null;

/** Takes the host's oldest queued run; SKIP LOCKED lets several claimers race safely. */
async function claimOnce(hostId: string): Promise<ClaimedRow | null> {
  const rows = await db().$queryRaw<ClaimedRow[]>`
    UPDATE probe_runs SET status = 'RUNNING', started_at = now(), last_activity_at = now(), updated_at = now()
    WHERE id = (
      SELECT id FROM probe_runs
      WHERE host_id = ${hostId}::uuid AND status = 'QUEUED'
      ORDER BY created_at
      FOR UPDATE SKIP LOCKED
      LIMIT 1
    )
    RETURNING id, probe, params, experiment_id, arm_index`;
  const row = rows[0] ?? null;
  if (row) await notifyRun(row.id, "status");
  return row;
}

/**
 * The host's pending requests; null when there are none. A tools re-check stays pending until
 * a report of the tools (a heartbeat with capabilities) is newer than the request, so a report
 * that fails to arrive is asked for again.
 */
async function pendingRequests(hostId: string): Promise<AgentRequests | null> {
  const rows = await db().$queryRaw<{ id: string }[]>`
    SELECT id FROM hosts
    WHERE id = ${hostId}::uuid AND tools_recheck_requested_at > COALESCE(tools_checked_at, '-infinity')`;
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
 * Long-poll: returns a job as soon as one is queued for the host, or the host's pending
 * requests as soon as an operator makes one (woken by NOTIFY, re-checked every few seconds in
 * case a notification was missed), or null after waitSec.
 */
export async function claimJob(hostId: string, waitSec: number, signal?: AbortSignal): Promise<ClaimOutcome> {
  const first = await claimOnceOrRequests(hostId);
  if (first || waitSec <= 0) return first;
  let wake: () => void = () => undefined;
  const unsubscribe = await pgListener().subscribe(hostChannel(hostId), () => wake());
  try {
    const deadline = Date.now() + waitSec * 1000;
    while (Date.now() < deadline && !signal?.aborted) {
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, Math.min(3000, Math.max(0, deadline - Date.now())));
        wake = () => {
          clearTimeout(t);
          resolve();
        };
        signal?.addEventListener("abort", () => wake(), { once: true });
      });
      const outcome = await claimOnceOrRequests(hostId);
      if (outcome) return outcome;
    }
    return null;
  } finally {
    unsubscribe();
  }
}
