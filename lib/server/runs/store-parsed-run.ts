import { randomUUID } from "node:crypto";
import { MAX_CHUNK_CHARS } from "../../../probes/protocol/schemas";
import { AppError } from "../../http/app-error";
import { instance } from "../../instance/instance";
import type { ParseReply } from "../../instance/parse/parse-types";
import { pgPool } from "../../pg-pool";
import { storableText } from "./sanitize-log";

export type Parsed = Extract<ParseReply, { kind: "parsed" }>;

/** How the caller words a refusal: an import speaks of "this output", a history day of "this day". */
export interface ParseRefusals {
  unreadable(parserError: string): string;
  tooLarge(message: string): string;
  gaveUp(message: string): string;
}

/**
 * Parses finished output in a worker with caps (lib/instance/parse) and refuses what cannot be
 * kept: unreadable output 400 with the parser's own message, beyond the caps 413, out of time
 * or memory 422. Nothing is stored then.
 */
export async function parseForStorage(probe: string, output: string, say: ParseRefusals, opts: { paste?: boolean } = {}): Promise<Parsed> {
  const reply = await instance().parser.parse({ probe, output, ...(opts.paste ? { paste: true } : {}) });
  if (reply.kind === "failed") throw new AppError("BAD_REQUEST", say.unreadable(reply.error), { output: [reply.error] });
  if (reply.kind === "too-large") throw new AppError("PAYLOAD_TOO_LARGE", say.tooLarge(reply.message));
  if (reply.kind === "gave-up") throw new AppError("UNPROCESSABLE", say.gaveUp(reply.message));
  return reply;
}

/** A finished run that did not come through the queue: what it is and where it came from. */
export interface FinishedRun {
  probe: string;
  origin: "IMPORTED" | "HISTORY";
  /** The host it belongs to, whose profile is copied onto it; null for an import. */
  hostId: string | null;
  /** The machine's name as the person importing gave it. */
  hostLabel: string | null;
  notes: string | null;
  createdById: string | null;
  /** A host history run's day (YYYY-MM-DD); one run per host and day. */
  historyDay: string | null;
}

/**
 * Stores a parsed run — a SUCCEEDED row with its result, and its output as the run's log so it
 * can be re-parsed later — in one transaction. Plain SQL with the result as one JSON parameter:
 * Prisma's per-query compiler took minutes on results of this size. Answers null, storing
 * nothing, when the host already has a run for that history day (two uploads racing store it
 * once) or the host is gone.
 */
export async function storeParsedRun(run: FinishedRun, output: string, parsed: Parsed): Promise<{ id: string } | null> {
  const seqs: number[] = [];
  const datas: string[] = [];
  for (let i = 0, seq = 0; i < output.length; i += MAX_CHUNK_CHARS, seq++) {
    seqs.push(seq);
    datas.push(storableText(output.slice(i, i + MAX_CHUNK_CHARS)));
  }
  const id = randomUUID();
  const client = await pgPool().connect();
  try {
    await client.query("BEGIN");
    const inserted = await client.query(
      `INSERT INTO probe_runs (id, host_id, host_label, probe, params, notes, origin, status, created_by_id, history_day,
                               started_at, finished_at, result, warnings, profile, updated_at)
       SELECT $1::uuid, h.id, $3, $4, '{}'::jsonb, $5, $6::"RunOrigin", 'SUCCEEDED', $7::uuid, $8::date,
              now(), now(), $9::jsonb, $10::jsonb, h.profile, now()
         FROM (SELECT 1) AS one LEFT JOIN hosts h ON h.id = $2::uuid
        WHERE $2::uuid IS NULL OR h.id IS NOT NULL
       ON CONFLICT (host_id, history_day) DO NOTHING
       RETURNING id`,
      [id, run.hostId, run.hostLabel, run.probe, run.notes, run.origin, run.createdById, run.historyDay, parsed.resultJson, JSON.stringify(parsed.warnings)],
    );
    if (inserted.rowCount === 0) {
      await client.query("ROLLBACK");
      return null;
    }
    await client.query(`INSERT INTO run_log_chunks (run_id, seq, data) SELECT $1::uuid, s, d FROM unnest($2::int[], $3::text[]) AS t(s, d)`, [id, seqs, datas]);
    await client.query("COMMIT");
  } catch (err) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
  return { id };
}
