import { pgPool } from "../pg-pool";
import { INLINE_MAX_BYTES, notifySql } from "../notifications";
import { metrics } from "./metrics";

/** One upload as the batch statement takes it: data already made storable. */
export interface PendingUpload {
  credentialHash: string;
  runId: string;
  seqs: number[];
  datas: string[];
}

/** What the batch statement says of one upload. */
export interface UploadOutcome {
  host_id: string | null;
  run_host_id: string | null;
  run_exists: boolean;
  cancel: boolean | null;
  /** The run's status when it does not take output (never claimed, or already finished); else null. */
  closed_status: string | null;
  stored: number;
  /** Bytes of the chunks stored (for /metrics). */
  stored_bytes: number;
}


/**
 * Every upload of a batch in one round trip and one commit: authenticate each agent credential,
 * lock the runs (in id order, so two batches never deadlock), insert the chunks of the uploads
 * whose host owns an open run (RUNNING, or LOST by silence with finished_at still empty: late
 * output is welcome), idempotently on (run, seq), touch the runs' and hosts' activity, and
 * NOTIFY each run's watchers, with small uploads riding in the notification. A batch holds at
 * most one upload per run, so a run's figures are its upload's.
 */
const BATCH_SQL = `
  WITH up AS (
    SELECT * FROM unnest($1::text[], $2::uuid[]) WITH ORDINALITY AS u(hash, run_id, i)
  ), locked AS (
    SELECT id, host_id, cancel_requested_at, status,
           (status IN ('RUNNING', 'LOST') AND started_at IS NOT NULL AND finished_at IS NULL) AS open
    FROM probe_runs WHERE id IN (SELECT run_id FROM up)
    ORDER BY id
    -- Locked: a finish committing meanwhile is seen here (finished_at set), never missed.
    FOR UPDATE
  ), checked AS (
    SELECT up.i, up.run_id, h.id AS host_id, l.id AS locked_id, l.host_id AS run_host_id, l.cancel_requested_at, l.status, l.open,
           (h.id IS NOT NULL AND l.open AND l.host_id = h.id) AS ok
    FROM up LEFT JOIN hosts h ON h.agent_credential_hash = up.hash LEFT JOIN locked l ON l.id = up.run_id
  ), ins AS (
    INSERT INTO run_log_chunks (run_id, seq, data)
    SELECT c.run_id, t.s, t.d FROM unnest($3::int[], $4::int[], $5::text[]) AS t(u, s, d) JOIN checked c ON c.i = t.u AND c.ok
    ON CONFLICT (run_id, seq) DO NOTHING
    -- Not the data: handing every stored chunk's text back to the statement cost PostgreSQL more
    -- than the insert itself for large uploads; the small ones' lines are joined in below. Its
    -- length only, for the ingest counters of /metrics.
    RETURNING run_id, seq, octet_length(data) AS bytes
  ), touch_run AS (
    -- At most every 5 s per run: the LOST sweep waits 60 s of silence, and each update copies the
    -- run's wide row (params, result), which cost a streaming run more than its chunks' insert.
    UPDATE probe_runs SET last_activity_at = now()
    WHERE id IN (SELECT run_id FROM checked WHERE ok) AND (last_activity_at IS NULL OR last_activity_at < now() - interval '5 seconds')
    RETURNING id
  ), touch_host AS (
    UPDATE hosts SET last_seen_at = now()
    WHERE id IN (SELECT host_id FROM checked WHERE ok) AND (last_seen_at IS NULL OR last_seen_at < now() - interval '5 seconds')
    RETURNING id
  ), per_run AS (
    SELECT run_id, count(*)::int AS stored, sum(bytes)::float8 AS stored_bytes, max(seq) AS max_seq FROM ins GROUP BY run_id
  ), inline AS (
    -- The lines this statement stored, of the uploads small enough to ride in the notification:
    -- $6–$8 repeat just those uploads' lines (at most INLINE_MAX_BYTES each, judged by the app in
    -- bytes), so the large uploads' text is not read a second time.
    SELECT c.run_id, json_agg(json_build_array(t.s, t.d) ORDER BY t.s)::text AS items
    FROM unnest($6::int[], $7::int[], $8::text[]) AS t(u, s, d)
    JOIN checked c ON c.i = t.u AND c.ok
    JOIN ins ON ins.run_id = c.run_id AND ins.seq = t.s
    GROUP BY c.run_id
  ), notified AS (
    SELECT pg_notify(${notifySql.runChannel("p.run_id")}, ${notifySql.chunks("i.items", "p.max_seq")}) AS n
    FROM per_run p LEFT JOIN inline i ON i.run_id = p.run_id
  )
  SELECT c.i::int AS i, c.host_id::text AS host_id, c.run_host_id::text AS run_host_id, c.locked_id IS NOT NULL AS run_exists,
         c.cancel_requested_at IS NOT NULL AS cancel,
         CASE WHEN NOT c.open THEN c.status::text END AS closed_status,
         COALESCE(p.stored, 0) AS stored, COALESCE(p.stored_bytes, 0) AS stored_bytes,
         -- Referenced so that the notifications and touches are made (a CTE nobody reads is skipped).
         (SELECT count(*) FROM notified)::int + (SELECT count(*) FROM touch_run)::int + (SELECT count(*) FROM touch_host)::int AS effects
  FROM checked c LEFT JOIN per_run p ON p.run_id = c.run_id
  ORDER BY c.i`;

async function runBatch(uploads: PendingUpload[]): Promise<UploadOutcome[]> {
  const u: number[] = [];
  const s: number[] = [];
  const d: string[] = [];
  const small = { u: [] as number[], s: [] as number[], d: [] as string[] };
  uploads.forEach((up, i) => {
    let bytes = 0;
    up.seqs.forEach((seq, k) => {
      const data = up.datas[k] ?? "";
      u.push(i + 1);
      s.push(seq);
      d.push(data);
      bytes += Buffer.byteLength(data);
    });
    if (bytes > INLINE_MAX_BYTES) return;
    small.u.push(...up.seqs.map(() => i + 1));
    small.s.push(...up.seqs);
    small.d.push(...up.seqs.map((_, k) => up.datas[k] ?? ""));
  });
  const params = [uploads.map((x) => x.credentialHash), uploads.map((x) => x.runId), u, s, d, small.u, small.s, small.d];
  const m = metrics();
  const timer = m.chunkBatchSeconds.startTimer();
  const { rows } = await pgPool().query<UploadOutcome & { i: number }>(BATCH_SQL, params);
  timer();
  for (const r of rows) {
    m.chunks.inc(r.stored);
    m.chunkBytes.inc(r.stored_bytes);
  }
  const byIndex = new Map(rows.map((r) => [r.i, r]));
  // One row per upload, always (checked is built from every upload).
  return uploads.map((_, k) => byIndex.get(k + 1)!);
}

interface Waiting {
  upload: PendingUpload;
  /** The upload's output characters, counted once: a queued upload may be looked at by several takes. */
  chars: number;
  resolve(o: UploadOutcome): void;
  reject(e: unknown): void;
}

/** Uploads per statement, and their total output: one statement stays a few MiB at most. */
const MAX_BATCH = 100;
const MAX_BATCH_CHARS = 8 * 1024 * 1024;

/** Batch statements running at once: two keep PostgreSQL's core busy while the app prepares the next. */
const MAX_RUNNING = 2;

/**
 * Group commit of chunk uploads across runs and agents. While MAX_RUNNING batch statements run,
 * the uploads that arrive wait and go together in the next: under load a commit (and its WAL
 * flush) serves many uploads, and when the server is quiet an upload goes at once, alone. An agent
 * has one upload in flight at a time, so two batches rarely hold the same run; when they do (a
 * retry after a timeout) the run's row lock orders them and ON CONFLICT keeps one copy. A failed
 * batch is retried upload by upload, so an error reaches only the upload it belongs to.
 */
export class ChunkBatcher {
  private queue: Waiting[] = [];
  private running = 0;

  submit(upload: PendingUpload): Promise<UploadOutcome> {
    return new Promise((resolve, reject) => {
      this.queue.push({ upload, chars: upload.datas.reduce((n, x) => n + x.length, 0), resolve, reject });
      this.next();
    });
  }

  private take(): Waiting[] {
    const batch: Waiting[] = [];
    const runs = new Set<string>();
    let chars = 0;
    const rest: Waiting[] = [];
    for (const w of this.queue) {
      const fits = batch.length < MAX_BATCH && !runs.has(w.upload.runId) && (batch.length === 0 || chars + w.chars <= MAX_BATCH_CHARS);
      if (!fits) {
        rest.push(w);
        continue;
      }
      batch.push(w);
      runs.add(w.upload.runId);
      chars += w.chars;
    }
    this.queue = rest;
    return batch;
  }

  private next(): void {
    while (this.running < MAX_RUNNING && this.queue.length > 0) {
      const batch = this.take();
      this.running++;
      void this.run(batch).finally(() => {
        this.running--;
        this.next();
      });
    }
  }

  private async run(batch: Waiting[]): Promise<void> {
    try {
      const outcomes = await runBatch(batch.map((w) => w.upload));
      batch.forEach((w, k) => w.resolve(outcomes[k]!));
    } catch (err) {
      if (batch.length === 1) batch.forEach((w) => w.reject(err));
      else await Promise.all(batch.map((w) => runBatch([w.upload]).then((o) => w.resolve(o[0]!), w.reject)));
    }
  }
}
