import { webhooksApi } from "@/lib/api/webhooks";
import { audit } from "@/lib/server/audit/audit-request";
import { serverUrl } from "@/lib/server/hosts/server-url";
import { rememberServerUrl } from "@/lib/server/webhooks/public-base-url";
import { testWebhook } from "@/lib/server/webhooks/test-webhook";
import { handle } from "../../../../handle";

export const dynamic = "force-dynamic";

export const POST = handle(webhooksApi.test, async ({ actor, params: { id } }) => {
  const base = await serverUrl();
  await rememberServerUrl(base);
  const outcome = await testWebhook({ id, baseUrl: base });
  await audit({ actor, action: "webhook.test", target: { type: "webhook", id }, details: { status: outcome.status, statusCode: outcome.statusCode } });
  return { status: 200, json: outcome };
});
