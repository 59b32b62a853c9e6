import type { FiringOutcome } from "@prisma/client";
import { db } from "../../db";
import { hostNames, scheduleJson, type ScheduleJson } from "./schedule-json";

/** Every schedule, by name. */
export async function listSchedules(): Promise<ScheduleJson[]> {
  const rows = await db().schedule.findMany({ orderBy: [{ name: "asc" }, { createdAt: "asc" }] });
  const names = await hostNames(rows);
  return rows.map((r) => scheduleJson(r, names));
}

/** Per schedule, the outcomes of its latest due time (one per host), for the list page. */
export async function latestFiringOutcomes(scheduleIds: string[]): Promise<Map<string, { dueAt: Date; outcomes: Partial<Record<FiringOutcome, number>> }>> {
  if (scheduleIds.length === 0) return new Map();
  const rows = await db().$queryRaw<{ schedule_id: string; due_at: Date; outcome: FiringOutcome; n: bigint }[]>`
    SELECT f.schedule_id, f.due_at, f.outcome, count(*) AS n
    FROM schedule_firings f
    JOIN (SELECT schedule_id, max(due_at) AS due_at FROM schedule_firings WHERE schedule_id = ANY(${scheduleIds}::uuid[]) GROUP BY schedule_id) l
      ON l.schedule_id = f.schedule_id AND l.due_at = f.due_at
    GROUP BY f.schedule_id, f.due_at, f.outcome`;
  const out = new Map<string, { dueAt: Date; outcomes: Partial<Record<FiringOutcome, number>> }>();
  for (const r of rows) {
    const e = out.get(r.schedule_id) ?? { dueAt: r.due_at, outcomes: {} };
    e.outcomes[r.outcome] = Number(r.n);
    out.set(r.schedule_id, e);
  }
  return out;
}
