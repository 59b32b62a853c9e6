// A schedules row as the API and the pages show it (lib/api/schemas/schedules.ts scheduleSchema).
import type { Schedule } from "@prisma/client";
import type { z } from "zod";
import type { scheduleSchema } from "../../api/schemas/schedules";
import { db } from "../../db";
import { describeSchedule } from "../../trends/schedule-time";

export type ScheduleJson = z.infer<typeof scheduleSchema>;

/** Host id → name for every host these schedules name (one query); a deleted host maps to nothing. */
export async function hostNames(rows: { hostIds: string[] }[]): Promise<Map<string, string>> {
  const ids = [...new Set(rows.flatMap((r) => r.hostIds))];
  if (ids.length === 0) return new Map();
  const hosts = await db().host.findMany({ where: { id: { in: ids } }, select: { id: true, name: true } });
  return new Map(hosts.map((h) => [h.id, h.name]));
}

export function scheduleJson(s: Schedule, names: Map<string, string>): ScheduleJson {
  return {
    id: s.id,
    name: s.name,
    kind: s.kind === "EXPERIMENT" ? "experiment" : "run",
    hosts: s.hostIds.map((id) => ({ id, name: names.get(id) ?? null })),
    probe: s.probe,
    preset: s.preset,
    params: (s.params ?? {}) as Record<string, unknown>,
    cron: s.cron,
    intervalMinutes: s.intervalMinutes,
    timezone: s.timezone,
    jitterSeconds: s.jitterSeconds,
    skipIfBusy: s.skipIfBusy,
    quietStart: s.quietStart,
    quietEnd: s.quietEnd,
    paused: s.paused,
    nextFireAt: s.nextFireAt?.toISOString() ?? null,
    lastFiredAt: s.lastFiredAt?.toISOString() ?? null,
    describe: describeSchedule(s),
    createdById: s.createdById,
    createdAt: s.createdAt.toISOString(),
  };
}
