// The bodies and answers of /api/admin/webhooks (admins only) and /api/admin/settings.
import { z } from "zod";

// PostgreSQL text cannot hold NUL: refused here with the field named, not a 500 at the insert.
const noNul = (s: string) => !s.includes("\u0000");

const httpUrl = z
  .string()
  .trim()
  .max(2000, "URLs are at most 2000 characters.")
  .refine(noNul, "The URL must not contain NUL characters.")
  .refine((s) => {
    try {
      const u = new URL(s);
      return (u.protocol === "http:" || u.protocol === "https:") && !u.username && !u.password;
    } catch {
      return false;
    }
  }, "Give an http:// or https:// URL without a user name or password in it.");

export const createWebhookSchema = z
  .object({
    name: z.string().trim().min(1, "Give the target a name.").max(100).refine(noNul, "The name must not contain NUL characters."),
    url: httpUrl,
    format: z.enum(["json", "slack"]).default("json"),
    includeImprovements: z.boolean().default(false),
    enabled: z.boolean().default(true),
  })
  .strict();
export type CreateWebhookInput = z.infer<typeof createWebhookSchema>;

export const updateWebhookSchema = z
  .object({
    name: z.string().trim().min(1, "Give the target a name.").max(100).refine(noNul, "The name must not contain NUL characters.").optional(),
    url: httpUrl.optional(),
    format: z.enum(["json", "slack"]).optional(),
    includeImprovements: z.boolean().optional(),
    enabled: z.boolean().optional(),
    rotateSecret: z.boolean().optional().describe("A new signing secret, shown once in the answer."),
  })
  .strict();
export type UpdateWebhookInput = z.infer<typeof updateWebhookSchema>;

export const webhookSchema = z
  .object({
    id: z.string().uuid(),
    name: z.string(),
    url: z.string(),
    format: z.enum(["json", "slack"]),
    includeImprovements: z.boolean(),
    enabled: z.boolean(),
    createdAt: z.string(),
    lastDelivery: z.object({ status: z.enum(["PENDING", "DELIVERED", "FAILED"]), at: z.string(), statusCode: z.number().int().nullable() }).nullable(),
  })
  .meta({ id: "WebhookTarget" });

/** Create and rotate answer with the secret, once. */
export const webhookWithSecretSchema = webhookSchema.extend({ secret: z.string().describe("HMAC-SHA256 key of X-Probebook-Signature: shown only now.") });

export const webhookDeliverySchema = z
  .object({
    id: z.string().uuid(),
    alertId: z.string().uuid().nullable(),
    test: z.boolean(),
    status: z.enum(["PENDING", "DELIVERED", "FAILED"]),
    attempts: z.number().int(),
    nextAttemptAt: z.string().nullable(),
    lastStatusCode: z.number().int().nullable(),
    lastError: z.string().nullable(),
    createdAt: z.string(),
    deliveredAt: z.string().nullable(),
  })
  .meta({ id: "WebhookDelivery" });

export const retentionSettingsSchema = z
  .object({
    rawLogDays: z
      .number()
      .int()
      .min(1, "Keep raw logs at least 1 day, or null to keep them forever.")
      .max(36500)
      .nullable()
      .describe("Drop runs' raw output older than this many days; results, telemetry, series and alerts stay. null: keep forever."),
  })
  .strict()
  .meta({ id: "RetentionSettings" });
export type RetentionSettings = z.infer<typeof retentionSettingsSchema>;
