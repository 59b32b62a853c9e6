// The PostgreSQL NOTIFY grammar, in one place: the channels, what each payload says, how the
// server writes it from TypeScript (notify.ts) and from inside SQL statements (chunk ingest,
// telemetry ingest, the claim), and the one reader the live views use. A payload is at most
// 8000 bytes (PostgreSQL's limit), so large news is only a pointer to re-read the table.
import { z } from "zod";

const hex = (uuid: string) => uuid.replace(/-/g, "").toLowerCase();

/** One channel per run: its live views listen there (lib/server/runs/run-event-stream.ts). */
export const runChannel = (runId: string) => `pb_run_${hex(runId)}`;
/** One channel for every host's job notifications; the payload is the host id (lib/server/agent/job-waiters.ts). */
export const HOST_JOBS_CHANNEL = "pb_host_jobs";

/** What a run's watchers are told. */
export type RunNotification =
  /** Status, cancel request or finish changed: re-read the status (and the log, to be sure). */
  | { kind: "status" }
  /** Telemetry up to `t` was stored. */
  | { kind: "telemetry"; t: number }
  /** Output up to `seq` was stored but too large to ride along: read it from the table. */
  | { kind: "chunk"; seq: number }
  /** The new output itself, `[seq, data]` in seq order: a view that is up to date sends it as is. */
  | { kind: "chunks"; items: [number, string][] };

// The payloads as text: "status", "telemetry:<t>", "chunk:<max seq>", "chunks:[[seq, data], …]".
const STATUS = "status";
const TELEMETRY_PREFIX = "telemetry:";
const CHUNK_PREFIX = "chunk:";
const INLINE_PREFIX = "chunks:";

/** PostgreSQL's NOTIFY payload limit is 8000 bytes. */
export const NOTIFY_MAX_BYTES = 7990;
/** Raw output bytes an upload may have to ride in its notification (JSON escaping may grow them). */
export const INLINE_MAX_BYTES = 6000;

export function encodeRunNotification(n: RunNotification): string {
  switch (n.kind) {
    case "status":
      return STATUS;
    case "telemetry":
      return `${TELEMETRY_PREFIX}${n.t}`;
    case "chunk":
      return `${CHUNK_PREFIX}${n.seq}`;
    case "chunks":
      return `${INLINE_PREFIX}${JSON.stringify(n.items)}`;
  }
}

const inlineItemsSchema = z.array(z.tuple([z.number().int().min(0), z.string()])).min(1);

/**
 * A payload read back; null for one this server does not understand (an older or newer
 * instance's, or cut short), which a view treats as "something changed: read everything".
 */
export function readRunNotification(payload: string): RunNotification | null {
  if (payload === STATUS) return { kind: "status" };
  if (payload.startsWith(INLINE_PREFIX)) {
    try {
      const r = inlineItemsSchema.safeParse(JSON.parse(payload.slice(INLINE_PREFIX.length)));
      return r.success ? { kind: "chunks", items: r.data } : null;
    } catch {
      return null;
    }
  }
  const numberAfter = (prefix: string) => {
    const rest = payload.startsWith(prefix) ? payload.slice(prefix.length) : "";
    const v = rest.trim() === "" ? NaN : Number(rest);
    return Number.isFinite(v) ? v : null;
  };
  const seq = numberAfter(CHUNK_PREFIX);
  if (seq !== null) return { kind: "chunk", seq };
  const t = numberAfter(TELEMETRY_PREFIX);
  if (t !== null) return { kind: "telemetry", t };
  return null;
}

// The same payloads written inside SQL statements, so a notification leaves with the statement's
// commit and costs no round trip. Each takes SQL expressions (column names) and is checked
// against encodeRunNotification by lib/notifications.test.ts on a real database.
const quote = (s: string) => `'${s.replace(/'/g, "''")}'`;

export const notifySql = {
  /** The run channel of a uuid expression: `'pb_run_' || replace(id::text, '-', '')`. */
  runChannel: (runIdExpr: string) => `'pb_run_' || replace(${runIdExpr}::text, '-', '')`,
  /** The status payload. */
  status: () => quote(STATUS),
  /** `telemetry:<t>` from a float8 expression. */
  telemetry: (tExpr: string) => `${quote(TELEMETRY_PREFIX)} || ${tExpr}`,
  /**
   * The chunks themselves when their JSON array (`itemsExpr`, text, NULL when too large to build)
   * fits the payload, else `chunk:<max seq>`.
   */
  chunks: (itemsExpr: string, maxSeqExpr: string) =>
    `CASE WHEN octet_length(${itemsExpr}) <= ${NOTIFY_MAX_BYTES} THEN ${quote(INLINE_PREFIX)} || ${itemsExpr} ELSE ${quote(CHUNK_PREFIX)} || ${maxSeqExpr} END`,
};
