import { pgPool } from "../../pg-pool";
import { getRetention } from "../settings/get-retention";

const DAY_MS = 86_400_000;
/** Runs per statement: each batch is one short transaction, so ingest and readers are never held up long. */
const BATCH_RUNS = 50;
/** Batches per pass: a first pass over years of runs is spread over the following days' passes. */
const MAX_BATCHES = 200;

/** The sentence the log readers show in place of a pruned run's raw output. */
export function prunedLogNotice(prunedAt: Date | string): string {
  const day = new Date(prunedAt).toISOString().slice(0, 10);
  return `The raw output was dropped by the retention setting on ${day}; the result, telemetry and checks are kept.`;
}

/**
 * The retention setting's raw-log pruning: the chunks of runs that ended more than rawLogDays ago
 * are deleted and the run marked with log_pruned_at. Results, telemetry, flags, series and alerts
 * stay (they are other tables or columns). Idempotent; a no-op while the setting keeps logs forever.
 * Answers how many runs lost their log.
 */
export async function pruneRawLogs(opts: { now?: Date; rawLogDays?: number | null } = {}): Promise<number> {
  const days = opts.rawLogDays !== undefined ? opts.rawLogDays : (await getRetention()).rawLogDays;
  if (days === null) return 0;
  const now = opts.now ?? new Date();
  const cutoff = new Date(now.getTime() - days * DAY_MS);
  let total = 0;
  for (let i = 0; i < MAX_BATCHES; i++) {
    // SKIP LOCKED: two instances pruning at once take different runs.
    const { rowCount } = await pgPool().query(
      `WITH picked AS (
         SELECT r.id FROM probe_runs r
          WHERE r.finished_at < $1 AND r.status IN ('SUCCEEDED', 'FAILED', 'CANCELLED', 'LOST')
            AND EXISTS (SELECT 1 FROM run_log_chunks c WHERE c.run_id = r.id)
          ORDER BY r.finished_at
          LIMIT $2
          FOR UPDATE SKIP LOCKED
       ), dropped AS (
         DELETE FROM run_log_chunks c USING picked WHERE c.run_id = picked.id
       )
       UPDATE probe_runs r SET log_pruned_at = $3 FROM picked WHERE r.id = picked.id`,
      [cutoff, BATCH_RUNS, now],
    );
    total += rowCount ?? 0;
    if ((rowCount ?? 0) < BATCH_RUNS) break;
  }
  return total;
}
