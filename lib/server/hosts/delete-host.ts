import type { Actor } from "../../auth/actor";
import { assertOwnerOrAdmin } from "../../auth/ownership";
import { db } from "../../db";
import { AppError } from "../../http/app-error";
import { notifyHost, notifyRun } from "../../instance/notify";
import { recordAudit } from "../audit/record-audit";
import { advanceExperimentSafely } from "../experiments/advance-safely";

export const HOST_REMOVED_MESSAGE = "The host was removed before this run finished.";

export interface DeletedHost {
  id: string;
  name: string;
  runsKept: number;
  runsCancelled: number;
  /** Runs an agent was running at that moment (among runsCancelled). */
  runsInFlight: number;
  experimentsKept: number;
  /** Experiments still running, ended by the removal (among experimentsKept). */
  experimentsEnded: number;
}

/**
 * Deletes a host (whoever added it, or an admin) and records what it removed. Nothing measured
 * goes with it: runs and experiments each keep the host's name in host_label and lose host_id
 * (ON DELETE SET NULL), which is how they read "from a removed host", whoever made them. Runs
 * still queued or running end as CANCELLED and their experiments end with them. The agent
 * credential lived on the host row, so the host's agent is refused (401) from its next request
 * on; experiment runs it had in flight keep that credential, with which it may still deliver the
 * setup report that says what it put back (lib/server/agent/accept-final-report.ts).
 */
export async function deleteHost({ id, actor, ip = null }: { id: string; actor: Actor; ip?: string | null }): Promise<DeletedHost> {
  const host = await db().host.findUnique({ where: { id }, select: { id: true, name: true, createdById: true } });
  if (!host) throw new AppError("NOT_FOUND", `No host ${id}.`);
  assertOwnerOrAdmin(actor, host.createdById, "this host");
  const now = new Date();
  const r = await db().$transaction(async (tx) => {
    // The row locked first: a claim (which reads the credential on it) cannot start a run after this.
    const [locked] = await tx.$queryRaw<{ hash: string | null }[]>`SELECT agent_credential_hash AS hash FROM hosts WHERE id = ${id}::uuid FOR UPDATE`;
    const active = await tx.probeRun.findMany({ where: { hostId: id, status: { in: ["QUEUED", "RUNNING"] } }, select: { id: true, status: true, experimentId: true } });
    const inFlight = active.filter((a) => a.status === "RUNNING");
    await tx.probeRun.updateMany({
      where: { id: { in: active.map((a) => a.id) } },
      data: { status: "CANCELLED", cancelRequestedAt: now, finishedAt: now, errorMessage: HOST_REMOVED_MESSAGE },
    });
    if (locked?.hash) {
      await tx.probeRun.updateMany({ where: { id: { in: inFlight.filter((a) => a.experimentId).map((a) => a.id) } }, data: { finalReportCredentialHash: locked.hash } });
    }
    const { count } = await tx.probeRun.updateMany({ where: { hostId: id }, data: { hostLabel: host.name } });
    const experiments = await tx.experiment.findMany({ where: { hostId: id }, select: { id: true, status: true } });
    await tx.experiment.updateMany({ where: { hostId: id }, data: { hostLabel: host.name } });
    await tx.host.delete({ where: { id } });
    return { active, inFlight: inFlight.length, kept: count, experiments, agentRegistered: !!locked?.hash };
  });
  // Its long-polling agent claims again at once and is refused then, not at the end of its poll.
  await notifyHost(id);
  for (const run of r.active) await notifyRun(run.id, { kind: "status" });
  // Each running experiment fails on its cancelled run, naming the removal; its `reverted` says
  // whether the arm in flight was put back once that run's setup report arrives.
  const running = r.experiments.filter((e) => e.status === "RUNNING").map((e) => e.id);
  for (const experimentId of running) await advanceExperimentSafely(experimentId);
  const out: DeletedHost = {
    id,
    name: host.name,
    runsKept: r.kept,
    runsCancelled: r.active.length,
    runsInFlight: r.inFlight,
    experimentsKept: r.experiments.length,
    experimentsEnded: running.length,
  };
  const { id: _id, ...details } = out;
  await recordAudit({ actor, action: "host.delete", target: { type: "host", id }, ip, details: { ...details, anyRunInFlight: r.inFlight > 0, agentCredentialRevoked: r.agentRegistered } });
  return out;
}
