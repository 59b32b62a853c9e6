import { schedulesApi } from "@/lib/api/schedules";
import { audit } from "@/lib/server/audit/audit-request";
import { setSchedulePaused } from "@/lib/server/schedules/pause-schedule";
import { handle } from "../../../handle";

export const dynamic = "force-dynamic";

export const POST = handle(schedulesApi.resume, async ({ actor, params: { id } }) => {
  const result = await setSchedulePaused({ id, paused: false, actor });
  await audit({ actor, action: "schedule.resume", target: { type: "schedule", id } });
  return { status: 200, json: result };
});
