import { randomUUID } from "node:crypto";
import { MAX_CHUNK_CHARS, type HistoryDayRequest } from "../../../probes/protocol/schemas";
import { historyProbe } from "../../../probes/catalog";
import { AppError } from "../../http/app-error";
import { pgPool } from "../../pg-pool";
import { instance } from "../../instance/instance";
import { storableText } from "../runs/sanitize-log";

export interface StoredHistoryDay {
  runId: string;
  /** false: this host's day was already stored, and runId names that run. */
  created: boolean;
}

async function existingDay(hostId: string, day: string): Promise<string | null> {
  const r = await pgPool().query<{ id: string }>(`SELECT id FROM probe_runs WHERE host_id = $1::uuid AND history_day = $2::date`, [hostId, day]);
  return r.rows[0]?.id ?? null;
}

/**
 * One finished day of a host's recorded history, sent by its agent's --history, kept as a SUCCEEDED
 * run of the catalog's history probe with origin HISTORY: parsed by its parser in a worker (parse-off-thread.ts), the
 * output kept as the run's log, the host's profile copied onto it. One run per host and
 * day (the file's own header date, which must match `day`): a repeat answers the stored run with
 * created false — an agent whose state file was lost, or whose answer got lost, then simply
 * records it — rather than a 409 it would have to treat as success anyway.
 */
export async function storeHistoryDay(opts: { hostId: string; body: HistoryDayRequest }): Promise<StoredHistoryDay> {
  const { hostId, body } = opts;
  const probe = historyProbe();
  if (!probe?.history) throw new AppError("BAD_REQUEST", "This server has no probe that reads a host's history.");
  const headerDay = probe.history.fileDate(body.output);
  if (headerDay === null) {
    throw new AppError("BAD_REQUEST", `The output is not what ${probe.id} makes of a daily history file: no file date in its header.`, { output: ["no file-date"] });
  }
  if (headerDay !== body.day) {
    throw new AppError("BAD_REQUEST", `The day ${body.day} does not match the file's own header date ${headerDay}.`, { day: ["header date differs"] });
  }
  const known = await existingDay(hostId, body.day);
  if (known) return { runId: known, created: false };

  const reply = await instance().parser.parse({ probe: probe.id, output: body.output });
  if (reply.kind === "failed") throw new AppError("BAD_REQUEST", `The ${probe.id} parser could not read ${body.file}: ${reply.error}`, { output: [reply.error] });
  if (reply.kind === "too-large") throw new AppError("PAYLOAD_TOO_LARGE", `This day is too large to store: ${reply.message}`);
  if (reply.kind === "gave-up") throw new AppError("UNPROCESSABLE", `This day could not be stored: ${reply.message}`);
  if (reply.measurements === 0) throw new AppError("BAD_REQUEST", `${body.file} holds no samples for ${body.day}.`, { output: ["no samples"] });

  const seqs: number[] = [];
  const datas: string[] = [];
  for (let i = 0, seq = 0; i < body.output.length; i += MAX_CHUNK_CHARS, seq++) {
    seqs.push(seq);
    datas.push(storableText(body.output.slice(i, i + MAX_CHUNK_CHARS)));
  }
  const id = randomUUID();
  const notes = storableText(`host history of ${body.day}, read from ${body.file}`).slice(0, 5000);
  const client = await pgPool().connect();
  try {
    await client.query("BEGIN");
    // ON CONFLICT: two uploads of the same day racing each other store it once.
    const inserted = await client.query(
      `INSERT INTO probe_runs (id, host_id, probe, params, notes, origin, status, history_day, started_at, finished_at, result, warnings, profile, updated_at)
       SELECT $1::uuid, h.id, $7, '{}'::jsonb, $3, 'HISTORY', 'SUCCEEDED', $4::date, now(), now(), $5::jsonb, $6::jsonb, h.profile, now()
         FROM hosts h WHERE h.id = $2::uuid
       ON CONFLICT (host_id, history_day) DO NOTHING
       RETURNING id`,
      [id, hostId, notes, body.day, reply.resultJson, JSON.stringify(reply.warnings), probe.id],
    );
    if (inserted.rowCount === 0) {
      await client.query("ROLLBACK");
      const raced = await existingDay(hostId, body.day);
      if (!raced) throw new AppError("NOT_FOUND", "This agent's host no longer exists.");
      return { runId: raced, created: false };
    }
    await client.query(`INSERT INTO run_log_chunks (run_id, seq, data) SELECT $1::uuid, s, d FROM unnest($2::int[], $3::text[]) AS t(s, d)`, [id, seqs, datas]);
    await client.query("COMMIT");
  } catch (err) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
  return { runId: id, created: true };
}
