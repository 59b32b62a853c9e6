import { db } from "../../db";
import { AppError } from "../../http/app-error";
import { notifyRun } from "../../instance/notify";
import { advanceExperiment } from "./advance-experiment";

/**
 * Stops an experiment: queued runs are cancelled at once, the running one is asked to stop (its
 * agent stops the probe, puts the tunables back and takes the lab down, then reports it). The
 * experiment is CANCELLED now; `reverted` is settled when that last run's report arrives.
 */
export async function cancelExperiment(opts: { id: string }): Promise<{ status: string; runningRunId: string | null }> {
  const exp = await db().experiment.findUnique({ where: { id: opts.id }, select: { status: true } });
  if (!exp) throw new AppError("NOT_FOUND", `No experiment ${opts.id}.`);
  if (exp.status !== "RUNNING") throw new AppError("CONFLICT", `This experiment has already ended (${exp.status.toLowerCase()}).`);
  const now = new Date();
  const running = await db().$transaction(async (tx) => {
    await tx.$queryRaw`SELECT id FROM experiments WHERE id = ${opts.id}::uuid FOR UPDATE`;
    const current = await tx.experiment.findUniqueOrThrow({ where: { id: opts.id }, select: { status: true } });
    if (current.status !== "RUNNING") throw new AppError("CONFLICT", `This experiment has already ended (${current.status.toLowerCase()}).`);
    await tx.probeRun.updateMany({
      where: { experimentId: opts.id, status: "QUEUED" },
      data: { status: "CANCELLED", cancelRequestedAt: now, finishedAt: now, errorMessage: "Cancelled with its experiment before it started." },
    });
    const runningRuns = await tx.probeRun.findMany({ where: { experimentId: opts.id, status: "RUNNING" }, select: { id: true } });
    await tx.probeRun.updateMany({ where: { experimentId: opts.id, status: "RUNNING", cancelRequestedAt: null }, data: { cancelRequestedAt: now } });
    await tx.experiment.update({
      where: { id: opts.id },
      data: {
        status: "CANCELLED",
        decision: "cancelled",
        decisionMessage: runningRuns.length > 0 ? "Cancelled: the running run was asked to stop; its agent puts the arm's setup back and reports it." : "Cancelled before its next run started.",
        finishedAt: now,
      },
    });
    return runningRuns.map((r) => r.id);
  });
  for (const id of running) await notifyRun(id, { kind: "status" });
  // With nothing running, settle `reverted` and the partial verdict now.
  await advanceExperiment({ experimentId: opts.id });
  return { status: "CANCELLED", runningRunId: running[0] ?? null };
}
