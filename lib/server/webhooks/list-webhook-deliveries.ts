import { db } from "../../db";
import { AppError } from "../../http/app-error";
import { deliveryToJson, type WebhookDeliveryJson } from "./webhook-json";

/** A target's latest 100 deliveries, newest first; 404 when there is no such target. */
export async function listWebhookDeliveries({ id, take = 100 }: { id: string; take?: number }): Promise<WebhookDeliveryJson[]> {
  const target = await db().webhookTarget.findUnique({ where: { id }, select: { id: true } });
  if (!target) throw new AppError("NOT_FOUND", `No webhook target ${id}.`);
  const rows = await db().webhookDelivery.findMany({ where: { targetId: id }, orderBy: { createdAt: "desc" }, take });
  return rows.map(deliveryToJson);
}
