import type { CreateWebhookInput } from "../../api/schemas/webhooks";
import { db } from "../../db";
import { newWebhookSecret } from "./sign-webhook";
import { FORMAT_OF_INPUT, webhookToJson, type WebhookJson } from "./webhook-json";

/** A new target with its signing secret, which this answer is the only one to show. */
export async function createWebhook({ input, createdById }: { input: CreateWebhookInput; createdById: string | null }): Promise<WebhookJson & { secret: string }> {
  const secret = newWebhookSecret();
  const t = await db().webhookTarget.create({
    data: {
      name: input.name,
      url: input.url,
      format: FORMAT_OF_INPUT[input.format],
      includeImprovements: input.includeImprovements,
      enabled: input.enabled,
      secret,
      createdById,
    },
  });
  return { ...webhookToJson(t, null), secret };
}
