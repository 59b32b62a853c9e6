import type { Actor } from "../../auth/actor";
import { db } from "../../db";
import { scheduleToChange } from "./update-schedule";

/** Deletes the schedule and its firings log; the runs it queued stay (their schedule_id is cleared by the foreign key). */
export async function deleteSchedule({ id, actor }: { id: string; actor: Actor }): Promise<void> {
  const row = await scheduleToChange(id, actor);
  await db().schedule.delete({ where: { id: row.id } });
}
