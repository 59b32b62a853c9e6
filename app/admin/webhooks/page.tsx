import type { Metadata } from "next";
import { WebhooksAdmin } from "@/components/admin/webhooks-admin";
import { requirePageUser } from "@/lib/auth/page-guard";
import { listWebhookDeliveries } from "@/lib/server/webhooks/list-webhook-deliveries";
import { listWebhooks } from "@/lib/server/webhooks/list-webhooks";

export const metadata: Metadata = { title: "Webhooks" };
export const dynamic = "force-dynamic";

export default async function WebhooksPage() {
  await requirePageUser("/admin/webhooks", "ADMIN");
  const webhooks = await listWebhooks();
  const logs = await Promise.all(webhooks.map(async (w) => [w.id, await listWebhookDeliveries({ id: w.id })] as const));
  return (
    <>
      <h1>Webhooks</h1>
      <p className="muted">
        Where regression alerts are sent (improvements too, if a target asks). Each delivery is a POST signed with the target&apos;s secret:{" "}
        <code>X-Probebook-Signature: sha256=HMAC-SHA256(secret, &quot;&lt;X-Probebook-Timestamp&gt;.&lt;raw body&gt;&quot;)</code>; see the README&apos;s
        &quot;Alerts and webhooks&quot; or the API docs. Failed deliveries are retried after 30 s, 2 min, 10 min, 1 h and 6 h.
      </p>
      <WebhooksAdmin webhooks={webhooks} deliveries={Object.fromEntries(logs)} />
    </>
  );
}
