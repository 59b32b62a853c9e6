import { pgPool } from "../../pg-pool";
import { log } from "../../log";
import { metrics } from "../../instance/metrics";
import { notifyRun } from "../../instance/notify";
import { queueOfflineTimeoutMinFrom } from "../../runtime/ops-settings";
import { advanceExperimentSafely } from "../experiments/advance-safely";

/**
 * One UPDATE, so that of several instances sweeping at once each run is ended by exactly one (the
 * row lock makes the others' WHERE fail). A run ends when it has waited `$1` minutes and its host
 * has not been seen for as long: a run queued on a host that went away an hour ago still gets its
 * full wait. CANCELLED, like a run withdrawn before it started (cancel, a host removed): nothing
 * ran, so nothing failed. The message's time is the host's last sign of life (the column holds UTC, as every timestamp here).
 */
const EXPIRE_SQL = `
  UPDATE probe_runs r
  SET status = 'CANCELLED', finished_at = now(), cancel_requested_at = now(), updated_at = now(),
      error_message = CASE
        WHEN h.last_seen_at IS NULL THEN 'not started: host never came online'
        ELSE 'not started: host offline since ' || to_char(h.last_seen_at, 'YYYY-MM-DD HH24:MI') || ' UTC'
      END
  FROM hosts h
  WHERE r.host_id = h.id AND r.status = 'QUEUED'
    AND r.created_at < now() - make_interval(mins => $1::int)
    AND COALESCE(h.last_seen_at, '-infinity') < now() - make_interval(mins => $1::int)
  RETURNING r.id::text AS id, r.experiment_id::text AS experiment_id, r.error_message`;

/**
 * Ends the QUEUED runs whose host has stayed offline for QUEUE_OFFLINE_TIMEOUT_MIN minutes (0:
 * never), tells their live views, and moves their experiments on (a run that cannot start fails
 * its experiment, as any run that ends badly does). Run by every instance's upkeep every 10 s.
 */
export async function expireQueuedRuns(timeoutMin = queueOfflineTimeoutMinFrom(process.env)): Promise<number> {
  if (timeoutMin === 0) return 0;
  const { rows } = await pgPool().query<{ id: string; experiment_id: string | null; error_message: string }>(EXPIRE_SQL, [timeoutMin]);
  if (rows.length === 0) return 0;
  metrics().runsExpired.inc(rows.length);
  log().info(`${rows.length} queued run(s) ended as not started: their host stayed offline for ${timeoutMin} min`, { runIds: rows.map((r) => r.id) });
  for (const r of rows) await notifyRun(r.id, { kind: "status" });
  for (const e of new Set(rows.flatMap((r) => r.experiment_id ?? []))) await advanceExperimentSafely(e);
  return rows.length;
}
