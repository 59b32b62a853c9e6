import type { PrismaClient, Role } from "@prisma/client";
import { db } from "../db";

/** How long a session lives without being used again; the cookie's max-age matches. */
export const SESSION_TTL_SECONDS = 60 * 60 * 24 * 14;
// lastSeenAt/expiresAt are refreshed at most this often, not on every request.
const TOUCH_AFTER_MS = 5 * 60 * 1000;

export async function createSession(
  userId: string,
  from: { ip?: string | null; userAgent?: string | null },
  client: PrismaClient = db(),
): Promise<string> {
  const row = await client.session.create({
    data: {
      userId,
      expiresAt: new Date(Date.now() + SESSION_TTL_SECONDS * 1000),
      ip: from.ip?.slice(0, 100) ?? null,
      userAgent: from.userAgent?.slice(0, 300) ?? null,
    },
    select: { id: true },
  });
  return row.id;
}

export interface SessionUser {
  sessionId: string;
  userId: string;
  email: string;
  role: Role;
}

const UUID_RE = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/**
 * The user behind a session id, or null when the session is unknown, revoked, expired or its
 * user is disabled. Read on every request, so revocation takes effect at once.
 */
export async function readSession(sessionId: string, client: PrismaClient = db()): Promise<SessionUser | null> {
  if (!UUID_RE.test(sessionId)) return null;
  const now = new Date();
  const row = await client.session.findFirst({
    where: { id: sessionId, revokedAt: null, expiresAt: { gt: now }, user: { disabledAt: null } },
    select: { id: true, lastSeenAt: true, user: { select: { id: true, email: true, role: true } } },
  });
  if (!row) return null;
  if (now.getTime() - row.lastSeenAt.getTime() > TOUCH_AFTER_MS) {
    await client.session.update({
      where: { id: row.id },
      data: { lastSeenAt: now, expiresAt: new Date(now.getTime() + SESSION_TTL_SECONDS * 1000) },
    });
  }
  return { sessionId: row.id, userId: row.user.id, email: row.user.email, role: row.user.role };
}

/** Revokes one session (sign-out), only if it belongs to `ownerId` when given; returns whether it was live. */
export async function revokeSession(sessionId: string, ownerId?: string, client: PrismaClient = db()): Promise<boolean> {
  if (!UUID_RE.test(sessionId)) return false;
  const r = await client.session.updateMany({ where: { id: sessionId, revokedAt: null, ...(ownerId ? { userId: ownerId } : {}) }, data: { revokedAt: new Date() } });
  return r.count > 0;
}

/**
 * Revokes every live session of a user (sign out everywhere, password or role change, disable),
 * optionally sparing one (the browser that asked). Returns how many were revoked.
 */
export async function revokeUserSessions(userId: string, opts: { except?: string } = {}, client: PrismaClient = db()): Promise<number> {
  const r = await client.session.updateMany({
    where: { userId, revokedAt: null, ...(opts.except ? { id: { not: opts.except } } : {}) },
    data: { revokedAt: new Date() },
  });
  return r.count;
}

/** Live sessions of a user, newest first (for the sign-out page). */
export async function listUserSessions(userId: string, client: PrismaClient = db()) {
  return client.session.findMany({
    where: { userId, revokedAt: null, expiresAt: { gt: new Date() } },
    orderBy: { lastSeenAt: "desc" },
    select: { id: true, createdAt: true, lastSeenAt: true, ip: true, userAgent: true },
  });
}
