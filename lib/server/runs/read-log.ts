import { db } from "../../db";
import { pgPool } from "../../pg-pool";

/** The run's raw output: its chunks concatenated in seq order. */
export async function readRunLog(runId: string): Promise<string> {
  const chunks = await db().runLogChunk.findMany({ where: { runId }, orderBy: { seq: "asc" }, select: { data: true } });
  return chunks.map((c) => c.data).join("");
}

/** Seqs in 0..lastSeq the server does not hold. */
export async function missingSeqs(runId: string, lastSeq: number): Promise<number[]> {
  if (lastSeq < 0) return [];
  const rows = await db().runLogChunk.findMany({ where: { runId, seq: { lte: lastSeq } }, select: { seq: true } });
  const have = new Set(rows.map((r) => r.seq));
  const missing: number[] = [];
  for (let s = 0; s <= lastSeq && missing.length < 100; s++) if (!have.has(s)) missing.push(s);
  return missing;
}

/** Chunks after a given seq, for SSE replay and live following (a hot path: plain pg). */
export async function chunksAfter(runId: string, afterSeq: number, limit = 500): Promise<{ seq: number; data: string }[]> {
  const { rows } = await pgPool().query<{ seq: number; data: string }>(
    "SELECT seq, data FROM run_log_chunks WHERE run_id = $1::uuid AND seq > $2 ORDER BY seq LIMIT $3",
    [runId, afterSeq, limit],
  );
  return rows;
}
