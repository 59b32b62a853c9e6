import { db } from "../../db";
import { AppError } from "../../http/app-error";
import { readRunLog } from "./read-log";

/** A run's raw output and its probe (for the download's file name); 404 when there is no such run. */
export async function getRunLog({ id }: { id: string }): Promise<{ probe: string; log: string }> {
  const run = await db().probeRun.findUnique({ where: { id }, select: { probe: true } });
  if (!run) throw new AppError("NOT_FOUND", `No run ${id}.`);
  return { probe: run.probe, log: await readRunLog(id) };
}
