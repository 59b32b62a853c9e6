import type { z } from "zod";
import type { scheduleDetailSchema } from "../../api/schemas/schedules";
import { db } from "../../db";
import { AppError } from "../../http/app-error";
import { uuidParam } from "../../http/params";
import { hostNames, scheduleJson } from "./schedule-json";

export type ScheduleDetail = z.infer<typeof scheduleDetailSchema>;

/** How long a QUEUED firing may lack its run before it reads as lost (the instance stopped between commit and queueing). */
const QUEUEING_GRACE_MS = 5 * 60_000;

/** One schedule with its last 50 firings (newest first) and the names of their hosts. */
export async function getSchedule({ id }: { id: string }): Promise<ScheduleDetail> {
  const row = await db().schedule.findUnique({ where: { id: uuidParam(id, "schedule") }, include: { firings: { orderBy: [{ dueAt: "desc" }, { firedAt: "desc" }], take: 50 } } });
  if (!row) throw new AppError("NOT_FOUND", `No schedule ${id}.`);
  const names = await hostNames([row, { hostIds: row.firings.flatMap((f) => (f.hostId ? [f.hostId] : [])) }]);
  const now = Date.now();
  return {
    ...scheduleJson(row, names),
    firings: row.firings.map((f) => ({
      id: f.id,
      hostId: f.hostId,
      hostName: f.hostId ? (names.get(f.hostId) ?? null) : null,
      dueAt: f.dueAt.toISOString(),
      firedAt: f.firedAt.toISOString(),
      outcome: f.outcome,
      runId: f.runId,
      experimentId: f.experimentId,
      message:
        f.message ??
        (f.outcome === "QUEUED" && !f.runId && !f.experimentId && now - f.firedAt.getTime() > QUEUEING_GRACE_MS
          ? "Claimed, but the app instance stopped before queueing it; it was not retried."
          : null),
    })),
  };
}
