import { db } from "../../db";
import { AppError } from "../../http/app-error";
import { prunedLogNotice } from "./prune-raw-logs";
import { readRunLog } from "./read-log";

/**
 * A run's raw output and its probe (for the download's file name); 404 when there is no such run.
 * A run whose output the retention setting dropped answers the sentence saying so, never an empty log.
 */
export async function getRunLog({ id }: { id: string }): Promise<{ probe: string; log: string; prunedAt: Date | null }> {
  const run = await db().probeRun.findUnique({ where: { id }, select: { probe: true, logPrunedAt: true } });
  if (!run) throw new AppError("NOT_FOUND", `No run ${id}.`);
  if (run.logPrunedAt) return { probe: run.probe, log: `${prunedLogNotice(run.logPrunedAt)}\n`, prunedAt: run.logPrunedAt };
  return { probe: run.probe, log: await readRunLog(id), prunedAt: null };
}
