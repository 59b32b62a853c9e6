import type { Actor } from "../../auth/actor";
import { assertOwnerOrAdmin } from "../../auth/ownership";
import { db } from "../../db";
import { AppError } from "../../http/app-error";
import { notifyRun } from "../../instance/notify";

export const HOST_REMOVED_MESSAGE = "The host was removed before this run finished.";

/**
 * Deletes a host (whoever added it, or an admin). Its runs stay: each keeps the host's name in
 * host_label and loses host_id (ON DELETE SET NULL), which is how a run reads "from a removed
 * host". Runs still queued or running end as CANCELLED. The agent credential lived on the host
 * row, so the host's agent is refused (401) from its next request on and stops.
 */
export async function deleteHost({ id, actor }: { id: string; actor: Actor }): Promise<{ id: string; name: string; runsKept: number; runsCancelled: number }> {
  const host = await db().host.findUnique({ where: { id }, select: { id: true, name: true, createdById: true } });
  if (!host) throw new AppError("NOT_FOUND", `No host ${id}.`);
  assertOwnerOrAdmin(actor, host.createdById, "this host");
  const now = new Date();
  const { cancelled, kept } = await db().$transaction(async (tx) => {
    const active = await tx.probeRun.findMany({ where: { hostId: id, status: { in: ["QUEUED", "RUNNING"] } }, select: { id: true } });
    await tx.probeRun.updateMany({
      where: { id: { in: active.map((r) => r.id) } },
      data: { status: "CANCELLED", cancelRequestedAt: now, finishedAt: now, errorMessage: HOST_REMOVED_MESSAGE },
    });
    const { count } = await tx.probeRun.updateMany({ where: { hostId: id }, data: { hostLabel: host.name } });
    await tx.host.delete({ where: { id } });
    return { cancelled: active.map((r) => r.id), kept: count };
  });
  for (const runId of cancelled) await notifyRun(runId, { kind: "status" });
  return { id, name: host.name, runsKept: kept, runsCancelled: cancelled.length };
}
