import { RUN_SILENCE_LOST_SEC } from "../../../probes/protocol/schemas";
import { db } from "../../db";
import { log } from "../../log";
import { advanceExperimentSafely } from "../experiments/advance-safely";
import { notifyRun } from "../../instance/notify";

/**
 * Marks running runs whose agent has been silent too long as LOST, keeping their partial log.
 * Idempotent and safe to run from every app instance at once.
 */
export async function markSilentRunsLost(): Promise<number> {
  const rows = await db().$queryRaw<{ id: string; experiment_id: string | null }[]>`
    UPDATE probe_runs
    SET status = 'LOST', updated_at = now(),
        error_message = 'The agent stopped reporting for more than ' || ${RUN_SILENCE_LOST_SEC}::int || ' s; the output received so far is kept.'
    WHERE status = 'RUNNING' AND last_activity_at < now() - make_interval(secs => ${RUN_SILENCE_LOST_SEC}::int)
    RETURNING id, experiment_id`;
  if (rows.length > 0) log().info(`${rows.length} running run(s) marked LOST: their agent was silent for ${RUN_SILENCE_LOST_SEC} s`, { runIds: rows.map((r) => r.id) });
  for (const r of rows) await notifyRun(r.id, { kind: "status" });
  for (const e of new Set(rows.flatMap((r) => r.experiment_id ?? []))) await advanceExperimentSafely(e);
  return rows.length;
}
