import { db } from "../../db";

export const DEFAULT_AUDIT_RETENTION_DAYS = 180;

/**
 * AUDIT_RETENTION_DAYS as a whole number of days (1 to 36500), the default when unset; anything
 * else is an error that names the setting, thrown at start-up (instrumentation.ts) so that a typo
 * stops the server instead of silently keeping, or deleting, the wrong rows.
 */
export function auditRetentionDays(raw: string | undefined = process.env.AUDIT_RETENTION_DAYS): number {
  if (raw === undefined || raw.trim() === "") return DEFAULT_AUDIT_RETENTION_DAYS;
  const text = raw.trim();
  const days = Number(text);
  if (!/^\d+$/.test(text) || days < 1 || days > 36_500) {
    throw new Error(`AUDIT_RETENTION_DAYS "${raw}" is not a number of days from 1 to 36500 (default ${DEFAULT_AUDIT_RETENTION_DAYS}).`);
  }
  return days;
}

/**
 * Deletes audit rows older than the retention (AUDIT_RETENTION_DAYS, default 180 days), so the log
 * does not grow without bound. Runs daily on every instance (lib/instance/instance.ts); deleting
 * the same rows twice is harmless. Returns how many rows went.
 */
export async function pruneAudit(opts: { now?: Date; retentionDays?: number } = {}): Promise<number> {
  const now = opts.now ?? new Date();
  const days = opts.retentionDays ?? auditRetentionDays();
  const before = new Date(now.getTime() - days * 86_400_000);
  const r = await db().auditEvent.deleteMany({ where: { at: { lt: before } } });
  return r.count;
}
