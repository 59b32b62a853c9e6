import { db } from "../../db";
import { hostChannel, pgListener } from "../realtime/pg-listener";
import { notifyRun } from "../realtime/notify";

interface ClaimedRow {
  id: string;
  probe: string;
  params: Record<string, unknown>;
  experiment_id: string | null;
  arm_index: number | null;
}

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
 * Long-poll: returns a job as soon as one is queued for the host (woken by NOTIFY, re-checked
 * every few seconds in case a notification was missed), or null after waitSec.
 */
export async function claimJob(hostId: string, waitSec: number, signal?: AbortSignal): Promise<ClaimedRow | null> {
  const first = await claimOnce(hostId);
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
      const job = await claimOnce(hostId);
      if (job) return job;
    }
    return null;
  } finally {
    unsubscribe();
  }
}
