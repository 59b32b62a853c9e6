import { schedulesApi } from "@/lib/api/schedules";
import { audit } from "@/lib/server/audit/audit-request";
import { deleteSchedule } from "@/lib/server/schedules/delete-schedule";
import { getSchedule } from "@/lib/server/schedules/get-schedule";
import { updateSchedule } from "@/lib/server/schedules/update-schedule";
import { handle } from "../../handle";

export const dynamic = "force-dynamic";

export const GET = handle(schedulesApi.get, async ({ params: { id } }) => ({ status: 200, json: await getSchedule({ id }) }));

export const PATCH = handle(schedulesApi.update, async ({ actor, params: { id }, body: input }) => {
  const { changed } = await updateSchedule({ id, input, actor });
  await audit({ actor, action: "schedule.update", target: { type: "schedule", id }, details: { changed } });
  return { status: 200, json: { id } };
});

export const DELETE = handle(schedulesApi.delete, async ({ actor, params: { id } }) => {
  await deleteSchedule({ id, actor });
  await audit({ actor, action: "schedule.delete", target: { type: "schedule", id } });
  return { status: 200, json: { deleted: id } };
});
