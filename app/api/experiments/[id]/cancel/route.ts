import { experimentsApi } from "@/lib/api/experiments";
import { audit } from "@/lib/server/audit/audit-request";
import { cancelExperiment } from "@/lib/server/experiments/cancel-experiment";
import { handle } from "../../../handle";

export const dynamic = "force-dynamic";

export const POST = handle(experimentsApi.cancel, async ({ actor, params: { id } }) => {
  const result = await cancelExperiment({ id });
  await audit({ actor, action: "experiment.cancel", target: { type: "experiment", id } });
  return { status: 200, json: result };
});
