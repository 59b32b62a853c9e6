import type { Chunk } from "../../../probes/agent/protocol";
import { db } from "../../db";
import { notifyRun } from "../realtime/notify";
import { storableText } from "../runs/sanitize-log";

/**
 * Stores log chunks idempotently: the unique (run_id, seq) index drops a chunk the server
 * already has, so an agent may resend after a timeout without duplicating output. Chunks are
 * accepted whatever the run's status — output that arrives after a run was marked LOST is kept.
 */
export async function storeChunks(runId: string, chunks: Chunk[]): Promise<{ stored: number; duplicates: number; cancelRequested: boolean }> {
  const seqs = chunks.map((c) => c.seq);
  const datas = chunks.map((c) => storableText(c.data));
  const stored = await db().$executeRaw`
    INSERT INTO run_log_chunks (run_id, seq, data)
    SELECT ${runId}::uuid, s, d FROM unnest(${seqs}::int[], ${datas}::text[]) AS t(s, d)
    ON CONFLICT (run_id, seq) DO NOTHING`;
  const run = await db().probeRun.update({
    where: { id: runId },
    data: { lastActivityAt: new Date() },
    select: { cancelRequestedAt: true },
  });
  if (stored > 0) await notifyRun(runId, `chunk:${Math.max(...seqs)}`);
  return { stored, duplicates: chunks.length - stored, cancelRequested: run.cancelRequestedAt !== null };
}
