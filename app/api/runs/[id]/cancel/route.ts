import { runsApi } from "@/lib/api/runs";
import { audit } from "@/lib/server/audit/audit-request";
import { cancelRun } from "@/lib/server/runs/cancel-run";
import { handle } from "../../../handle";

export const dynamic = "force-dynamic";

export const POST = handle(runsApi.cancel, async ({ actor, params: { id } }) => {
  const result = await cancelRun({ id });
  await audit({ actor, action: "run.cancel", target: { type: "run", id } });
  return { status: 200, json: result };
});
