import { webhooksApi } from "@/lib/api/webhooks";
import { audit } from "@/lib/server/audit/audit-request";
import { deleteWebhook } from "@/lib/server/webhooks/delete-webhook";
import { updateWebhook } from "@/lib/server/webhooks/update-webhook";
import { handle } from "../../../handle";

export const dynamic = "force-dynamic";

export const PATCH = handle(webhooksApi.update, async ({ actor, params: { id }, body }) => {
  const updated = await updateWebhook({ id, input: body });
  const { rotateSecret, ...changed } = body;
  await audit({ actor, action: "webhook.update", target: { type: "webhook", id }, details: { ...changed, rotatedSecret: rotateSecret === true } });
  return { status: 200, json: updated, headers: { "cache-control": "private, no-store" } };
});

export const DELETE = handle(webhooksApi.delete, async ({ actor, params: { id } }) => {
  const gone = await deleteWebhook({ id });
  await audit({ actor, action: "webhook.delete", target: { type: "webhook", id }, details: gone });
  return { status: 200, json: { deleted: id } };
});
