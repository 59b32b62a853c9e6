import type { Actor } from "../../auth/actor";
import { assertOwnerOrAdmin } from "../../auth/ownership";
import { db } from "../../db";
import { AppError } from "../../http/app-error";

/**
 * Deletes a run with its log (its launcher or an admin). A queued or running run must be
 * cancelled first: its agent is still writing to it. Shared comparisons keep their frozen copy.
 */
export async function deleteRun({ id, actor }: { id: string; actor: Actor }): Promise<{ id: string; probe: string; hostName: string | null }> {
  const run = await db().probeRun.findUnique({ where: { id }, select: { createdById: true, status: true, probe: true, hostLabel: true, host: { select: { name: true } } } });
  if (!run) throw new AppError("NOT_FOUND", `No run ${id}.`);
  assertOwnerOrAdmin(actor, run.createdById, "this run");
  if (run.status === "QUEUED" || run.status === "RUNNING") {
    throw new AppError("CONFLICT", `This run is ${run.status.toLowerCase()}: cancel it first, then delete it.`);
  }
  // Checked again in the statement itself, so a concurrent change cannot slip between the read and the delete.
  const gone = await db().probeRun.deleteMany({ where: { id, status: { notIn: ["QUEUED", "RUNNING"] } } });
  if (gone.count === 0) throw new AppError("CONFLICT", "This run changed while it was being deleted; reload and try again.");
  return { id, probe: run.probe, hostName: run.host?.name ?? run.hostLabel };
}
