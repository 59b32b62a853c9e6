import type { Prisma } from "@prisma/client";
import type { Actor } from "../../auth/actor";
import { assertOwnerOrAdmin } from "../../auth/ownership";
import type { UpdateScheduleInput } from "../../api/schemas/schedules";
import { db } from "../../db";
import { AppError } from "../../http/app-error";
import { uuidParam } from "../../http/params";
import { nextDueAfter, withJitter } from "../../trends/schedule-time";
import { validateScheduleDefinition, type ScheduleDefinition } from "./schedule-definition";

/** The schedule row an actor may change, or a 404 / 403. */
export async function scheduleToChange(id: string, actor: Actor) {
  const row = await db().schedule.findUnique({ where: { id: uuidParam(id, "schedule") } });
  if (!row) throw new AppError("NOT_FOUND", `No schedule ${id}.`);
  assertOwnerOrAdmin(actor, row.createdById, "this schedule");
  return row;
}

/**
 * PATCH: the patch merged over the row and the whole checked again; the hosts' admission only when
 * what runs or where changed. Giving cron clears the interval and the other way round. The next
 * due time is computed afresh from now (null while paused).
 */
export async function updateSchedule({ id, input, actor }: { id: string; input: UpdateScheduleInput; actor: Actor }): Promise<{ changed: string[] }> {
  const row = await scheduleToChange(id, actor);
  if (input.cron && input.intervalMinutes) throw new AppError("BAD_REQUEST", "Give either cron or intervalMinutes, not both.", { cron: ["Give either cron or intervalMinutes, not both."] });
  const def: ScheduleDefinition = {
    name: input.name ?? row.name,
    hostIds: input.hostIds?.map((h) => h.toLowerCase()) ?? row.hostIds,
    kind: row.kind === "EXPERIMENT" ? "experiment" : "run",
    probe: row.probe,
    preset: input.preset === undefined ? row.preset : input.preset,
    params: input.params ?? ((row.params ?? {}) as Record<string, unknown>),
    cron: input.cron !== undefined ? input.cron : input.intervalMinutes ? null : row.cron,
    intervalMinutes: input.intervalMinutes !== undefined ? input.intervalMinutes : input.cron ? null : row.intervalMinutes,
    timezone: input.timezone ?? row.timezone,
    jitterSeconds: input.jitterSeconds ?? row.jitterSeconds,
    skipIfBusy: input.skipIfBusy ?? row.skipIfBusy,
    quietStart: input.quietStart === undefined ? row.quietStart : input.quietStart,
    quietEnd: input.quietEnd === undefined ? row.quietEnd : input.quietEnd,
  };
  const whatOrWhere = input.hostIds !== undefined || input.preset !== undefined || input.params !== undefined;
  await validateScheduleDefinition(def, { checkTargets: whatOrWhere });
  const paused = input.paused ?? row.paused;
  const now = new Date();
  const nextFireAt = paused ? null : withJitter(nextDueAfter({ ...def, createdAt: row.createdAt }, now), def.jitterSeconds);
  await db().schedule.update({
    where: { id: row.id },
    data: { ...def, kind: undefined, params: def.params as Prisma.InputJsonValue, paused, nextFireAt },
  });
  return { changed: Object.keys(input) };
}
