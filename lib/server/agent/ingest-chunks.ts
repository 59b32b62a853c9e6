import type { Chunk } from "../../../probes/protocol/schemas";
import { AppError } from "../../http/app-error";
import { storableText } from "../runs/sanitize-log";
import { instance } from "../../instance/instance";
import { ingestTelemetry } from "./ingest-telemetry";
import { unknownCredential } from "./unknown-credential";

/**
 * The hot path of live output: authenticate the agent credential, check the run is its host's and
 * open, insert the chunks idempotently (unique run + seq), touch activity and NOTIFY watchers, in
 * one statement shared with the other uploads of the moment (chunk-batcher.ts). Six separate
 * queries per upload made ingest several times slower than the INSERT itself.
 */
export async function ingestChunks({ credentialHash, runId, chunks }: { credentialHash: string; runId: string; chunks: Chunk[] }) {
  const seqs = chunks.map((c) => c.seq);
  const datas = chunks.map((c) => storableText(c.data));
  const r = await instance().chunkBatcher.submit({ credentialHash, runId, seqs, datas });
  if (!r.host_id) throw unknownCredential();
  if (!r.run_exists) throw new AppError("NOT_FOUND", `No run ${runId}.`);
  if (r.run_host_id !== r.host_id) throw new AppError("FORBIDDEN", "This run belongs to another host.");
  if (r.closed_status === "QUEUED") throw new AppError("CONFLICT", "This run was never claimed by an agent: it takes no output.");
  if (r.closed_status) throw new AppError("CONFLICT", `This run has already finished (${r.closed_status.toLowerCase()}): it takes no more output.`);
  await ingestTelemetry(runId, chunks);
  return { stored: r.stored, duplicates: chunks.length - r.stored, cancelRequested: r.cancel === true };
}
