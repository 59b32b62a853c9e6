import { webhooksApi } from "@/lib/api/webhooks";
import { audit } from "@/lib/server/audit/audit-request";
import { serverUrl } from "@/lib/server/hosts/server-url";
import { createWebhook } from "@/lib/server/webhooks/create-webhook";
import { listWebhooks } from "@/lib/server/webhooks/list-webhooks";
import { rememberServerUrl } from "@/lib/server/webhooks/public-base-url";
import { handle } from "../../handle";

export const dynamic = "force-dynamic";

export const GET = handle(webhooksApi.list, async () => ({ status: 200, json: { webhooks: await listWebhooks() }, headers: { "cache-control": "private, no-store" } }));

export const POST = handle(webhooksApi.create, async ({ actor, body: input }) => {
  const created = await createWebhook({ input, createdById: actor.userId });
  // Payloads are sent with no request at hand: keep the address the admin uses for their links.
  await rememberServerUrl(await serverUrl());
  await audit({ actor, action: "webhook.create", target: { type: "webhook", id: created.id }, details: { name: created.name, url: created.url, format: created.format } });
  return { status: 201, json: created, headers: { "cache-control": "private, no-store" } };
});
