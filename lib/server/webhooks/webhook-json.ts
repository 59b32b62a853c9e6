import type { DeliveryStatus, WebhookDelivery, WebhookFormat, WebhookTarget } from "@prisma/client";
import type { z } from "zod";
import type { webhookDeliverySchema, webhookSchema } from "../../api/schemas/webhooks";

export type WebhookJson = z.infer<typeof webhookSchema>;
export type WebhookDeliveryJson = z.infer<typeof webhookDeliverySchema>;

export const FORMAT_OF_INPUT = { json: "JSON", slack: "SLACK" } as const satisfies Record<string, WebhookFormat>;

type LastDelivery = Pick<WebhookDelivery, "status" | "createdAt" | "deliveredAt" | "lastStatusCode"> & { status: DeliveryStatus };

/** A target as the API answers it: never its secret (only create and rotate show that, once). */
export function webhookToJson(t: WebhookTarget, last: LastDelivery | null): WebhookJson {
  return {
    id: t.id,
    name: t.name,
    url: t.url,
    format: t.format === "SLACK" ? "slack" : "json",
    includeImprovements: t.includeImprovements,
    enabled: t.enabled,
    createdAt: t.createdAt.toISOString(),
    lastDelivery: last ? { status: last.status, at: (last.deliveredAt ?? last.createdAt).toISOString(), statusCode: last.lastStatusCode } : null,
  };
}

export function deliveryToJson(d: WebhookDelivery): WebhookDeliveryJson {
  return {
    id: d.id,
    alertId: d.alertId,
    test: d.test,
    status: d.status,
    attempts: d.attempts,
    nextAttemptAt: d.status === "PENDING" ? d.nextAttemptAt.toISOString() : null,
    lastStatusCode: d.lastStatusCode,
    lastError: d.lastError,
    createdAt: d.createdAt.toISOString(),
    deliveredAt: d.deliveredAt?.toISOString() ?? null,
  };
}
