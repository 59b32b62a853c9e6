import { randomUUID } from "node:crypto";
import { MAX_CHUNK_CHARS } from "../../../probes/protocol/schemas";
import type { ImportRunInput } from "../../api/schemas/runs";
import { AppError } from "../../http/app-error";
import { pgPool } from "../../pg-pool";
import { parseOffThread } from "../parse/parse-off-thread";
import { storableText } from "./sanitize-log";

/**
 * Keeps existing tool output as a run: parsed with the same catalog parser as live runs (in a
 * worker, with caps: parse-off-thread.ts), stored with origin IMPORTED, and its raw text kept as
 * the run's log so it can be re-parsed later. Output the parser cannot read is refused with the
 * parser's own message (400), output beyond the caps with 413, a parse out of time or memory
 * with 422; nothing is stored then. The row and its log go in through plain SQL with the result
 * as one JSON parameter: Prisma's per-query compiler took minutes on results of this size.
 */
export async function importRun({ input, createdById }: { input: ImportRunInput; createdById: string }): Promise<{ id: string; format: string | null }> {
  const reply = await parseOffThread({ probe: input.probe, output: input.output });
  if (reply.kind === "failed") throw new AppError("BAD_REQUEST", reply.error, { output: [reply.error] });
  if (reply.kind === "too-large") throw new AppError("PAYLOAD_TOO_LARGE", `This output is too large to import: ${reply.message}`);
  if (reply.kind === "gave-up") throw new AppError("UNPROCESSABLE", `This output could not be imported: ${reply.message}`);
  const seqs: number[] = [];
  const datas: string[] = [];
  for (let i = 0, seq = 0; i < input.output.length; i += MAX_CHUNK_CHARS, seq++) {
    seqs.push(seq);
    datas.push(storableText(input.output.slice(i, i + MAX_CHUNK_CHARS)));
  }
  const id = randomUUID();
  const client = await pgPool().connect();
  try {
    await client.query("BEGIN");
    await client.query(
      `INSERT INTO probe_runs (id, probe, params, host_label, notes, origin, status, created_by_id, started_at, finished_at, result, warnings, updated_at)
       VALUES ($1::uuid, $2, '{}'::jsonb, $3, $4, 'IMPORTED', 'SUCCEEDED', $5::uuid, now(), now(), $6::jsonb, $7::jsonb, now())`,
      [id, input.probe, input.hostLabel, input.notes || null, createdById, reply.resultJson, JSON.stringify(reply.warnings)],
    );
    await client.query(`INSERT INTO run_log_chunks (run_id, seq, data) SELECT $1::uuid, s, d FROM unnest($2::int[], $3::text[]) AS t(s, d)`, [id, seqs, datas]);
    await client.query("COMMIT");
  } catch (err) {
    await client.query("ROLLBACK").catch(() => undefined);
    throw err;
  } finally {
    client.release();
  }
  // Which output form the parser recognised, so the person importing can check it guessed right.
  return { id, format: reply.format };
}
