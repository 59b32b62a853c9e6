import { webhooksApi } from "@/lib/api/webhooks";
import { audit } from "@/lib/server/audit/audit-request";
import { getRetention } from "@/lib/server/settings/get-retention";
import { updateRetention } from "@/lib/server/settings/update-retention";
import { handle } from "../../../handle";

export const dynamic = "force-dynamic";

export const GET = handle(webhooksApi.getRetention, async () => ({ status: 200, json: await getRetention() }));

export const PUT = handle(webhooksApi.putRetention, async ({ actor, body }) => {
  const before = await getRetention();
  const now = await updateRetention({ input: body });
  await audit({ actor, action: "settings.update", target: { type: "setting", id: "retention" }, details: { from: before, to: now } });
  return { status: 200, json: now };
});
