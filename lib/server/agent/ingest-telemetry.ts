import type { Chunk } from "../../../probes/protocol/schemas";
import { pgPool } from "../../pg-pool";
import { notifySql, runChannel } from "../../notifications";
import { metrics } from "../../instance/metrics";

/**
 * Stores the telemetry samples that rode in an upload's chunks, idempotently on (run, t), and
 * wakes the run's watchers. Called by ingestChunks only after its own statement accepted the
 * upload (credential, ownership, open run), so this statement needs no checks of its own; it is
 * separate so that chunk ingest can change shape without touching it. A failure here fails the
 * upload, and the agent resends the same chunks: the chunks are then duplicates and the
 * samples are stored, before the finish can go (it waits for the acknowledgement).
 */
export async function ingestTelemetry(runId: string, chunks: readonly Chunk[]): Promise<number> {
  const samples = chunks.flatMap((c) => c.telemetry ?? []);
  if (samples.length === 0) return 0;
  const { rows } = await pgPool().query<{ stored: number }>(TELEMETRY_SQL, [
    runId,
    samples.map((s) => s.t),
    samples.map((s) => JSON.stringify(s)),
    runChannel(runId),
  ]);
  const stored = rows[0]?.stored ?? 0;
  metrics().telemetrySamples.inc(stored);
  return stored;
}

const TELEMETRY_SQL = `
    WITH ins AS (
      INSERT INTO run_telemetry (run_id, t, sample)
      SELECT $1::uuid, x.t, x.s::jsonb FROM unnest($2::float8[], $3::text[]) AS x(t, s)
      ON CONFLICT (run_id, t) DO NOTHING
      RETURNING t
    ), counted AS (SELECT count(*)::int AS stored, max(t) AS max_t FROM ins)
    SELECT stored, CASE WHEN stored > 0 THEN pg_notify($4, ${notifySql.telemetry("max_t")})::text END AS notified FROM counted`;
