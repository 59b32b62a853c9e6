import { db } from "../../db";

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

/** Chunks after a given seq, for SSE replay. */
export function chunksAfter(runId: string, afterSeq: number, limit = 500) {
  return db().runLogChunk.findMany({
    where: { runId, seq: { gt: afterSeq } },
    orderBy: { seq: "asc" },
    take: limit,
    select: { seq: true, data: true },
  });
}
