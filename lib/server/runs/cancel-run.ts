import { db } from "../../db";
import { AppError } from "../../http/app-error";
import { advanceExperimentSafely } from "../experiments/advance-safely";
import { notifyRun } from "../../instance/notify";

/** A queued run is cancelled at once; a running one is flagged and the agent stops its process group. */
export async function cancelRun({ id: runId }: { id: string }): Promise<{ status: string }> {
  const run = await db().probeRun.findUnique({ where: { id: runId }, select: { status: true, experimentId: true } });
  if (!run) throw new AppError("NOT_FOUND", `No run ${runId}.`);
  const queued = await db().probeRun.updateMany({
    where: { id: runId, status: "QUEUED" },
    data: { status: "CANCELLED", cancelRequestedAt: new Date(), finishedAt: new Date(), errorMessage: "Cancelled before it started." },
  });
  if (queued.count === 0) {
    const running = await db().probeRun.updateMany({
      where: { id: runId, status: "RUNNING", cancelRequestedAt: null },
      data: { cancelRequestedAt: new Date() },
    });
    if (running.count === 0 && run.status !== "RUNNING") {
      throw new AppError("CONFLICT", `This run has already ended (${run.status.toLowerCase()}).`);
    }
  }
  await notifyRun(runId, { kind: "status" });
  if (queued.count > 0 && run.experimentId) await advanceExperimentSafely(run.experimentId);
  const now = await db().probeRun.findUniqueOrThrow({ where: { id: runId }, select: { status: true } });
  return { status: now.status };
}
