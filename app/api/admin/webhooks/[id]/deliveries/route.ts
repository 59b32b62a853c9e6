import { webhooksApi } from "@/lib/api/webhooks";
import { listWebhookDeliveries } from "@/lib/server/webhooks/list-webhook-deliveries";
import { handle } from "../../../../handle";

export const dynamic = "force-dynamic";

export const GET = handle(webhooksApi.deliveries, async ({ params: { id } }) => ({
  status: 200,
  json: { deliveries: await listWebhookDeliveries({ id }) },
  headers: { "cache-control": "private, no-store" },
}));
