import { db } from "../../db";
import { AppError } from "../../http/app-error";
import { attemptDelivery, storedPayload, type DeliveryOutcome } from "./deliver-webhooks";
import { publicBaseUrl } from "./public-base-url";
import { renderPayload, testAlert } from "./webhook-payload";

const LEASE_MS = 60_000;

/**
 * The "Send test" button: a test delivery (a made-up alert, event "test") attempted at once, its
 * outcome answered; it shows in the delivery log like any other and is not retried. Disabled
 * targets can be tested too: that is how one checks a target before enabling it.
 */
export async function testWebhook({ id, now = new Date(), baseUrl }: { id: string; now?: Date; baseUrl?: string | null }): Promise<DeliveryOutcome> {
  const target = await db().webhookTarget.findUnique({ where: { id }, select: { format: true } });
  if (!target) throw new AppError("NOT_FOUND", `No webhook target ${id}.`);
  const base = baseUrl !== undefined ? baseUrl : await publicBaseUrl();
  const payload = storedPayload("test", JSON.stringify(renderPayload(target.format, "test", testAlert(base, now))));
  // Not due until the lease is over: the background deliverer leaves it to this request.
  const d = await db().webhookDelivery.create({ data: { targetId: id, test: true, payload, nextAttemptAt: new Date(now.getTime() + LEASE_MS), createdAt: now } });
  return attemptDelivery(d.id, { now, baseUrl: base, retry: false });
}
