import type { Prisma } from "@prisma/client";
import { db } from "../../db";
import { AppError } from "../../http/app-error";
import { auditQuerySchema, type AuditQuery } from "../../api/schemas/audit";

/** Parses URL search params (blank values dropped); a bad filter is a 400 that names it. */
export function parseAuditQuery(params: URLSearchParams | Record<string, string | string[] | undefined>): AuditQuery {
  const entries = params instanceof URLSearchParams ? [...params.entries()] : Object.entries(params).map(([k, v]) => [k, Array.isArray(v) ? v[0] : v] as const);
  const raw = Object.fromEntries(entries.filter(([, v]) => typeof v === "string" && v.trim() !== ""));
  const parsed = auditQuerySchema.safeParse(raw);
  if (!parsed.success) throw new AppError("BAD_REQUEST", parsed.error.issues.map((i) => `${i.path.join(".")}: ${i.message}`).join(" "));
  return parsed.data;
}

export interface AuditRow {
  id: string;
  at: string;
  actorId: string | null;
  actorEmail: string | null;
  action: string;
  targetType: string | null;
  targetId: string | null;
  ip: string | null;
  details: unknown;
}

/** Audit records matching the filters, newest first. */
export async function listAudit(q: AuditQuery): Promise<AuditRow[]> {
  const where: Prisma.AuditEventWhereInput = {
    ...(q.action ? { action: q.action } : {}),
    ...(q.actor ? { actorEmail: { contains: q.actor.toLowerCase(), mode: "insensitive" } } : {}),
    ...(q.target ? { targetId: q.target } : {}),
    ...(q.ip ? { ip: q.ip } : {}),
    // `to` includes its whole day: up to its last millisecond (the column's precision) rather than
    // before the next day, which for 9999-12-31 is a year Prisma cannot send.
    ...(q.from || q.to
      ? { at: { ...(q.from ? { gte: new Date(`${q.from}T00:00:00Z`) } : {}), ...(q.to ? { lte: new Date(`${q.to}T23:59:59.999Z`) } : {}) } }
      : {}),
  };
  const rows = await db().auditEvent.findMany({ where, orderBy: { id: "desc" }, take: q.limit });
  return rows.map((r) => ({
    id: r.id.toString(),
    at: r.at.toISOString(),
    actorId: r.actorId,
    actorEmail: r.actorEmail,
    action: r.action,
    targetType: r.targetType,
    targetId: r.targetId,
    ip: r.ip,
    details: r.details,
  }));
}
