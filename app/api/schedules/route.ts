import { schedulesApi } from "@/lib/api/schedules";
import { audit } from "@/lib/server/audit/audit-request";
import { createSchedule } from "@/lib/server/schedules/create-schedule";
import { listSchedules } from "@/lib/server/schedules/list-schedules";
import { handle } from "../handle";

export const dynamic = "force-dynamic";

export const GET = handle(schedulesApi.list, async () => ({ status: 200, json: { schedules: await listSchedules() } }));

export const POST = handle(schedulesApi.create, async ({ actor, body: input }) => {
  const { id } = await createSchedule({ input, createdById: actor.userId });
  await audit({ actor, action: "schedule.create", target: { type: "schedule", id }, details: { name: input.name, hosts: input.hostIds.length, probe: input.probe, preset: input.preset ?? null } });
  return { status: 201, json: { id } };
});
