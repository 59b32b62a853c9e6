import type { Actor } from "../../auth/actor";
import { db } from "../../db";
import { nextDueAfter, withJitter } from "../../trends/schedule-time";
import { scheduleToChange } from "./update-schedule";

/** Paused: no next due time, nothing fires. Resumed: the next due time after now (missed ones while paused are not made up). */
export async function setSchedulePaused({ id, paused, actor }: { id: string; paused: boolean; actor: Actor }): Promise<{ paused: boolean; nextFireAt: string | null }> {
  const row = await scheduleToChange(id, actor);
  const nextFireAt = paused ? null : withJitter(nextDueAfter(row, new Date()), row.jitterSeconds);
  await db().schedule.update({ where: { id: row.id }, data: { paused, nextFireAt } });
  return { paused, nextFireAt: nextFireAt?.toISOString() ?? null };
}
