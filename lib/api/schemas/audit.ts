// The audit log's vocabulary and the filters of /admin/audit and GET /api/admin/audit.
import { z } from "zod";
import { queryText } from "../../http/query-schemas";

/** The actions the audit log records; one name per kind of mutation. */
export const AUDIT_ACTIONS = [
  "sign-in",
  "sign-in.failed",
  "sign-out",
  "sessions.revoke",
  "run.launch",
  "run.cancel",
  "run.import",
  "run.annotate",
  "run.delete",
  "experiment.create",
  "experiment.cancel",
  "experiment.share",
  "schedule.create",
  "schedule.update",
  "schedule.pause",
  "schedule.resume",
  "schedule.delete",
  "share.create",
  "share.revoke",
  "share.delete",
  "user.create",
  "user.role",
  "user.disable",
  "user.enable",
  "user.password",
  "token.create",
  "token.revoke",
  "host.create",
  "host.reregister",
  "host.register",
  "host.medium",
  "host.delete",
  "webhook.create",
  "webhook.update",
  "webhook.delete",
  "webhook.test",
  "settings.update",
  "series.update",
  "alert.acknowledge",
] as const;
export type AuditAction = (typeof AUDIT_ACTIONS)[number];

const day = z
  .string()
  .regex(/^\d{4}-\d{2}-\d{2}$/, "Dates are YYYY-MM-DD.")
  .refine((s) => !Number.isNaN(Date.parse(`${s}T00:00:00Z`)), "Not a calendar date.");

/** Filters of /admin/audit and GET /api/admin/audit (query strings; empty means any). */
export const auditQuerySchema = z.object({
  action: z.enum(AUDIT_ACTIONS, { error: `action is one of ${AUDIT_ACTIONS.join(", ")}.` }).optional(),
  actor: queryText("actor", 254).optional(),
  target: queryText("target", 100).optional(),
  ip: queryText("ip", 100).optional(),
  from: day.optional(),
  to: day.optional(),
  limit: z.coerce.number().int().min(1).max(5000).default(200),
});
export type AuditQuery = z.infer<typeof auditQuerySchema>;
