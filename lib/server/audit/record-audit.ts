import type { Prisma, PrismaClient } from "@prisma/client";
import { AUDIT_ACTIONS } from "../../api/schemas/audit";
import { db } from "../../db";
import { log } from "../../log";

export type AuditAction = (typeof AUDIT_ACTIONS)[number];

export interface AuditEntry {
  actor: { userId: string; email: string } | null;
  action: AuditAction;
  target?: { type: string; id: string } | null;
  ip?: string | null;
  details?: Record<string, unknown>;
}

/**
 * Writes one audit record. A failure to write is logged and swallowed: the mutation it
 * describes has already happened, and answering it with an error would only invite a retry.
 */
export async function recordAudit(entry: AuditEntry, client: PrismaClient = db()): Promise<void> {
  try {
    await client.auditEvent.create({
      data: {
        actorId: entry.actor?.userId ?? null,
        actorEmail: entry.actor?.email ?? null,
        action: entry.action,
        targetType: entry.target?.type ?? null,
        targetId: entry.target?.id ?? null,
        ip: entry.ip ?? null,
        details: (entry.details ?? {}) as Prisma.InputJsonValue,
      },
    });
  } catch (err) {
    log().error(`audit log write failed for ${entry.action}: ${err instanceof Error ? err.message : String(err)}`, { action: entry.action });
  }
}
