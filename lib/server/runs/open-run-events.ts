import { db } from "../../db";
import { AppError } from "../../http/app-error";
import { runEventStream } from "./run-event-stream";

/** The live event stream of a run, replaying chunks after `after`; 404 before any stream opens when there is no such run. */
export async function openRunEvents({ id, after, signal }: { id: string; after: number; signal: AbortSignal }): Promise<ReadableStream<Uint8Array>> {
  const exists = await db().probeRun.findUnique({ where: { id }, select: { id: true } });
  if (!exists) throw new AppError("NOT_FOUND", `No run ${id}.`);
  return runEventStream(id, after, signal);
}
