import type { Chunk } from "../../../probes/protocol/schemas";
import { pgPool } from "../../pg-pool";
import { AppError } from "../../http/app-error";
import { INLINE_PREFIX, runChannel } from "../realtime/pg-listener";
import { storableText } from "../runs/sanitize-log";
import { ingestTelemetry } from "./ingest-telemetry";
import { unknownCredential } from "./known-agents";

interface Row {
  host_id: string | null;
  run_host_id: string | null;
  run_exists: boolean;
  cancel: boolean | null;
  /** The run's status when it does not take output (never claimed, or already finished); else null. */
  closed_status: string | null;
  stored: number;
}

/**
 * The hot path of live output, in one round trip: authenticate the agent credential, check the
 * run is its host's, insert the chunks idempotently (unique run + seq), touch the run's and the
 * host's activity, and NOTIFY watchers. Only a claimed, unfinished run takes output: RUNNING,
 * or LOST by silence (finished_at still empty), whose late output is still welcome. Six separate queries per upload made ingest several
 * times slower than the INSERT itself.
 */
export async function ingestChunks({ credentialHash, runId, chunks }: { credentialHash: string; runId: string; chunks: Chunk[] }) {
  const seqs = chunks.map((c) => c.seq);
  const datas = chunks.map((c) => storableText(c.data));
  const { rows } = await pgPool().query<Row>(INGEST_SQL, [credentialHash, runId, seqs, datas, runChannel(runId)]);
  const r = rows[0];
  if (!r?.host_id) throw unknownCredential();
  if (!r.run_exists) throw new AppError("NOT_FOUND", `No run ${runId}.`);
  if (r.run_host_id !== r.host_id) throw new AppError("FORBIDDEN", "This run belongs to another host.");
  if (r.closed_status === "QUEUED") throw new AppError("CONFLICT", "This run was never claimed by an agent: it takes no output.");
  if (r.closed_status) throw new AppError("CONFLICT", `This run has already finished (${r.closed_status.toLowerCase()}): it takes no more output.`);
  await ingestTelemetry(runId, chunks);
  return { stored: r.stored, duplicates: chunks.length - r.stored, cancelRequested: r.cancel === true };
}

/** Raw output bytes an upload may have to ride in its notification (JSON escaping may grow them). */
const INLINE_MAX_BYTES = 6000;
/** PostgreSQL's NOTIFY payload limit is 8000 bytes. */
const NOTIFY_MAX_BYTES = 7990;

const INGEST_SQL = `
    WITH host AS (
      SELECT id FROM hosts WHERE agent_credential_hash = $1
    ), run AS (
      SELECT id, host_id, cancel_requested_at, status,
             (status IN ('RUNNING', 'LOST') AND started_at IS NOT NULL AND finished_at IS NULL) AS open
      FROM probe_runs WHERE id = $2::uuid
      -- Locked: a finish committing meanwhile is seen here (finished_at set), never missed.
      FOR UPDATE
    ), owned AS (
      SELECT run.id FROM run JOIN host ON host.id = run.host_id WHERE run.open
    ), ins AS (
      INSERT INTO run_log_chunks (run_id, seq, data)
      SELECT owned.id, t.s, t.d FROM owned, unnest($3::int[], $4::text[]) AS t(s, d)
      ON CONFLICT (run_id, seq) DO NOTHING
      RETURNING seq, data
    ), touch_run AS (
      UPDATE probe_runs SET last_activity_at = now() WHERE id IN (SELECT id FROM owned) RETURNING id
    ), touch_host AS (
      UPDATE hosts SET last_seen_at = now()
      WHERE id IN (SELECT id FROM host) AND (last_seen_at IS NULL OR last_seen_at < now() - interval '5 seconds')
      RETURNING id
    ), counted AS (
      SELECT count(*)::int AS stored, max(seq) AS max_seq FROM ins
    ), inline AS (
      -- Small uploads (a live probe's lines) ride in the notification itself, so that watchers on
      -- every instance send them on without reading them back: see run-event-stream.ts.
      SELECT CASE WHEN (SELECT sum(octet_length(data)) FROM ins) <= ${INLINE_MAX_BYTES}
                  THEN (SELECT json_agg(json_build_array(seq, data) ORDER BY seq)::text FROM ins) END AS items
    )
    SELECT (SELECT id::text FROM host) AS host_id,
           (SELECT host_id::text FROM run) AS run_host_id,
           EXISTS (SELECT 1 FROM run) AS run_exists,
           (SELECT cancel_requested_at IS NOT NULL FROM run) AS cancel,
           (SELECT status::text FROM run WHERE NOT open) AS closed_status,
           counted.stored,
           CASE WHEN counted.stored > 0 THEN pg_notify($5,
             CASE WHEN octet_length(inline.items) <= ${NOTIFY_MAX_BYTES} THEN '${INLINE_PREFIX}' || inline.items ELSE 'chunk:' || counted.max_seq END
           )::text END AS notified,
           ((SELECT count(*) FROM touch_run) + (SELECT count(*) FROM touch_host))::int AS touched
    FROM counted, inline`;
