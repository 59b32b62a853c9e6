import type { UpdateWebhookInput } from "../../api/schemas/webhooks";
import { db } from "../../db";
import { AppError } from "../../http/app-error";
import { newWebhookSecret } from "./sign-webhook";
import { FORMAT_OF_INPUT, webhookToJson, type WebhookJson } from "./webhook-json";

/** Changes a target; with rotateSecret the answer carries the new secret, once. 404 when there is none. */
export async function updateWebhook({ id, input }: { id: string; input: UpdateWebhookInput }): Promise<WebhookJson & { secret?: string }> {
  const { rotateSecret, format, ...rest } = input;
  const secret = rotateSecret ? newWebhookSecret() : undefined;
  const t = await db()
    .webhookTarget.update({ where: { id }, data: { ...rest, ...(format ? { format: FORMAT_OF_INPUT[format] } : {}), ...(secret ? { secret } : {}) } })
    .catch((err: unknown) => {
      if ((err as { code?: string }).code === "P2025") throw new AppError("NOT_FOUND", `No webhook target ${id}.`);
      throw err;
    });
  const last = await db().webhookDelivery.findFirst({ where: { targetId: id }, orderBy: { createdAt: "desc" } });
  return { ...webhookToJson(t, last), ...(secret ? { secret } : {}) };
}
