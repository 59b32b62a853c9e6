import type { Prisma } from "@prisma/client";
import type { CreateScheduleInput } from "../../api/schemas/schedules";
import { db } from "../../db";
import { nextDueAfter, withJitter } from "../../trends/schedule-time";
import { validateScheduleDefinition, type ScheduleDefinition } from "./schedule-definition";

/** Saves a schedule after checking it against every host it names; it first fires at its next due time (plus jitter). */
export async function createSchedule({ input, createdById }: { input: CreateScheduleInput; createdById: string | null }): Promise<{ id: string }> {
  const def: ScheduleDefinition = {
    name: input.name,
    hostIds: input.hostIds.map((id) => id.toLowerCase()),
    kind: input.kind,
    probe: input.probe,
    preset: input.preset ?? null,
    params: input.params,
    cron: input.cron ?? null,
    intervalMinutes: input.intervalMinutes ?? null,
    timezone: input.timezone,
    jitterSeconds: input.jitterSeconds,
    skipIfBusy: input.skipIfBusy,
    quietStart: input.quietStart ?? null,
    quietEnd: input.quietEnd ?? null,
  };
  await validateScheduleDefinition(def);
  // The interval grid is anchored on createdAt, so it is set here rather than by the database.
  const createdAt = new Date();
  const nextFireAt = withJitter(nextDueAfter({ ...def, createdAt }, createdAt), def.jitterSeconds);
  const row = await db().schedule.create({
    data: { ...def, kind: def.kind === "experiment" ? "EXPERIMENT" : "RUN", params: def.params as Prisma.InputJsonValue, createdAt, nextFireAt, createdById },
    select: { id: true },
  });
  return row;
}
