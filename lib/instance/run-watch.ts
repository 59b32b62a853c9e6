import { pgPool } from "../pg-pool";

/** What a live view shows of a run besides its log; the JSON of the SSE `status` event. */
export interface RunStatusRow {
  status: string;
  exitCode: number | null;
  errorMessage: string | null;
  startedAt: string | null;
  finishedAt: string | null;
  cancelRequestedAt: string | null;
}

// Timestamps as Prisma writes them to JSON (toISOString of a UTC timestamp), whatever the server's zone.
const iso = (col: string) => `to_char(${col}, 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"')`;
const STATUS_COLUMNS = `status::text AS "status", exit_code AS "exitCode", error_message AS "errorMessage",
  ${iso("started_at")} AS "startedAt", ${iso("finished_at")} AS "finishedAt", ${iso("cancel_requested_at")} AS "cancelRequestedAt"`;

/** One run's status (plain SQL: read on every status notification of every live view). */
export async function readRunStatus(runId: string): Promise<RunStatusRow | null> {
  const { rows } = await pgPool().query<RunStatusRow>(`SELECT ${STATUS_COLUMNS} FROM probe_runs WHERE id = $1::uuid`, [runId]);
  return rows[0] ?? null;
}

export interface RunWatcher {
  /** The run's status and highest stored seq at the sweep; null when the run is gone. */
  onSweep(row: { status: RunStatusRow; maxSeq: number } | null): void;
}

/**
 * The safety net of every live view in this instance, as one query every SWEEP_MS for all
 * watched runs instead of a status query per view every 2 s: NOTIFY wakes views at once, and the
 * sweep only matters for a notification lost while the listening connection was down.
 */
const SWEEP_MS = 2000;

export class RunWatchSweep {
  private readonly watchers = new Map<string, Set<RunWatcher>>();
  private timer: NodeJS.Timeout | null = null;
  private sweeping = false;

  add(runId: string, w: RunWatcher): () => void {
    let set = this.watchers.get(runId);
    if (!set) this.watchers.set(runId, (set = new Set()));
    set.add(w);
    this.timer ??= setInterval(() => void this.sweep(), SWEEP_MS);
    return () => {
      const s = this.watchers.get(runId);
      s?.delete(w);
      if (s?.size === 0) this.watchers.delete(runId);
      if (this.watchers.size === 0 && this.timer) {
        clearInterval(this.timer);
        this.timer = null;
      }
    };
  }

  /** Live views open now (for /metrics). */
  get viewers(): number {
    let n = 0;
    for (const s of this.watchers.values()) n += s.size;
    return n;
  }

  /** Ends the sweep and forgets every view (tests, shutdown). */
  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
    this.watchers.clear();
  }

  private async sweep(): Promise<void> {
    if (this.sweeping || this.watchers.size === 0) return;
    this.sweeping = true;
    try {
      const ids = [...this.watchers.keys()];
      const { rows } = await pgPool().query<RunStatusRow & { id: string; maxSeq: number | null }>(
        `SELECT id::text AS id, ${STATUS_COLUMNS},
                (SELECT max(seq) FROM run_log_chunks c WHERE c.run_id = r.id) AS "maxSeq"
         FROM probe_runs r WHERE id = ANY($1::uuid[])`,
        [ids],
      );
      const found = new Map(rows.map((r) => [r.id, r]));
      for (const id of ids) {
        const row = found.get(id);
        const arg = row ? { status: toStatus(row), maxSeq: row.maxSeq ?? -1 } : null;
        for (const w of this.watchers.get(id) ?? []) w.onSweep(arg);
      }
    } catch {
      // The database is away: the next sweep retries.
    } finally {
      this.sweeping = false;
    }
  }
}

const toStatus = (r: RunStatusRow): RunStatusRow => ({
  status: r.status,
  exitCode: r.exitCode,
  errorMessage: r.errorMessage,
  startedAt: r.startedAt,
  finishedAt: r.finishedAt,
  cancelRequestedAt: r.cancelRequestedAt,
});
