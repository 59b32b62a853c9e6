import { z } from "zod";
import { err, defineOperation } from "./operation";
import { createWebhookSchema, retentionSettingsSchema, updateWebhookSchema, webhookDeliverySchema, webhookSchema, webhookWithSecretSchema } from "./schemas/webhooks";

const group = "Alerts";

const SIGNING =
  "Every delivery is a POST with `X-Probebook-Event` (alert.regression, alert.improvement or test), `X-Probebook-Delivery` (the delivery's id: the same on every retry, so a receiver can drop duplicates), `X-Probebook-Timestamp` (Unix seconds) and `X-Probebook-Signature: sha256=<hex>`, the HMAC-SHA256 of `<timestamp>.<raw body>` keyed with the target's secret. A receiver recomputes it over the raw bytes, compares in constant time, and refuses timestamps more than a few minutes from its clock. A 2xx answer delivers; anything else is retried after 30 s, 2 min, 10 min, 1 h and 6 h, then the delivery is FAILED. Redirects are not followed; the timeout is 10 s.";

const outcomeSchema = z.object({
  id: z.string().uuid().describe("The test delivery's id (X-Probebook-Delivery)."),
  status: z.enum(["DELIVERED", "PENDING", "FAILED"]),
  statusCode: z.number().int().nullable().describe("The receiver's HTTP status; null when it did not answer."),
  error: z.string().nullable().describe("Why it was not delivered: the status and the start of the answer, or the connection error."),
});

/** /api/admin/webhooks and /api/admin/settings: where alerts are sent, and what is kept how long (admins only). */
export const webhooksApi = {
  list: defineOperation({
    method: "get",
    path: "/api/admin/webhooks",
    group,
    summary: "Webhook targets, each with its latest delivery",
    role: "admin",
    responses: { 200: { description: "Oldest first; secrets are never listed.", json: z.object({ webhooks: z.array(webhookSchema) }) } },
  }),
  create: defineOperation({
    method: "post",
    path: "/api/admin/webhooks",
    group,
    summary: "Add a webhook target for regression (and optionally improvement) alerts",
    description: `The answer carries the signing secret; it is not shown again (rotate it to get a new one). JSON targets receive { event, alert: { id, kind, message, ratio, ciLow, ciHigh, confidence, changes, createdAt, series: { id, probe, preset, target, host }, url } }; Slack targets a { text, blocks } message. ${SIGNING}`,
    role: "admin",
    body: createWebhookSchema,
    maxBodyBytes: 16 * 1024,
    responses: {
      201: { description: "Created, with its secret.", json: webhookWithSecretSchema },
      400: err("An invalid name or URL (fieldErrors names it)."),
    },
  }),
  update: defineOperation({
    method: "patch",
    path: "/api/admin/webhooks/{id}",
    group,
    summary: "Change a webhook target: name, URL, format, enabled, improvements; rotateSecret for a new secret",
    role: "admin",
    idOf: "webhook target",
    body: updateWebhookSchema,
    maxBodyBytes: 16 * 1024,
    responses: {
      200: { description: "The target; with rotateSecret, its new secret (shown once).", json: webhookSchema.extend({ secret: z.string().optional() }) },
      400: err("An invalid field (fieldErrors names it)."),
    },
  }),
  delete: defineOperation({
    method: "delete",
    path: "/api/admin/webhooks/{id}",
    group,
    summary: "Delete a webhook target and its delivery log",
    role: "admin",
    idOf: "webhook target",
    responses: { 200: { description: "Deleted; pending deliveries to it are dropped.", json: z.object({ deleted: z.string().uuid() }) } },
  }),
  test: defineOperation({
    method: "post",
    path: "/api/admin/webhooks/{id}/test",
    group,
    summary: "Send a test delivery now and answer how the receiver took it",
    description: `A made-up alert with event "test", signed like every delivery; tried once, not retried, and listed in the delivery log. ${SIGNING}`,
    role: "admin",
    idOf: "webhook target",
    responses: { 200: { description: "The outcome (DELIVERED or FAILED).", json: outcomeSchema } },
  }),
  deliveries: defineOperation({
    method: "get",
    path: "/api/admin/webhooks/{id}/deliveries",
    group,
    summary: "A webhook target's delivery log: the latest 100, newest first",
    role: "admin",
    idOf: "webhook target",
    responses: { 200: { description: "The deliveries.", json: z.object({ deliveries: z.array(webhookDeliverySchema) }) } },
  }),
  getRetention: defineOperation({
    method: "get",
    path: "/api/admin/settings/retention",
    group,
    summary: "How long runs' raw output is kept",
    role: "admin",
    responses: { 200: { description: "rawLogDays null: forever.", json: retentionSettingsSchema } },
  }),
  putRetention: defineOperation({
    method: "put",
    path: "/api/admin/settings/retention",
    group,
    summary: "Keep runs' raw output forever, or N days after the run ended",
    description:
      "Pruning runs daily on every instance: the raw output (log chunks) of runs that ended more than rawLogDays ago is deleted for good. Results, telemetry, checks, series and alerts are kept; the run's log then says when it was dropped.",
    role: "admin",
    body: retentionSettingsSchema,
    maxBodyBytes: 1024,
    responses: {
      200: { description: "The setting now in force.", json: retentionSettingsSchema },
      400: err("rawLogDays is not a whole number of days from 1 to 36500, or null."),
    },
  }),
};
