import { db } from "../../db";
import { webhookToJson, type WebhookJson } from "./webhook-json";

/** Every target, oldest first, each with its latest delivery. */
export async function listWebhooks(): Promise<WebhookJson[]> {
  const targets = await db().webhookTarget.findMany({
    orderBy: { createdAt: "asc" },
    include: { deliveries: { orderBy: { createdAt: "desc" }, take: 1 } },
  });
  return targets.map(({ deliveries, ...t }) => webhookToJson(t, deliveries[0] ?? null));
}
