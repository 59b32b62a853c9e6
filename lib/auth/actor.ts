import type { Role } from "@prisma/client";
import { headers } from "next/headers";
import { db } from "../db";
import { AppError } from "../http/app-error";
import { bearerToken } from "../http/bearer";
import { readSession } from "./session-store";
import { roleAtLeast } from "./roles";
import { hashSecret } from "./secret-token";
import { getSession } from "./session";

export interface Actor {
  userId: string;
  email: string;
  role: Role;
  via: "session" | "token";
  /** The session row behind a cookie (absent for API tokens). */
  sessionId?: string;
}

/** The actor behind an API token, or null when it is unknown, revoked, expired or its user disabled. */
export async function actorFromBearer(token: string): Promise<Actor | null> {
  const row = await db().apiToken.findUnique({
    where: { tokenHash: hashSecret(token) },
    select: { id: true, revokedAt: true, expiresAt: true, user: { select: { id: true, email: true, role: true, disabledAt: true } } },
  });
  // Revoked, expired, or its user disabled: the token no longer speaks for anyone.
  if (!row || row.revokedAt || (row.expiresAt && row.expiresAt <= new Date()) || row.user.disabledAt) return null;
  await db().apiToken.update({ where: { id: row.id }, data: { lastUsedAt: new Date() } });
  return { userId: row.user.id, email: row.user.email, role: row.user.role, via: "token" };
}

/**
 * Who is asking: an API token in `Authorization: Bearer`, else the session cookie. The user row
 * is read on every request so a changed role or a deleted user takes effect at once.
 */
export async function currentActor(authorization?: string | null): Promise<Actor | null> {
  // A route handler passes its request's header; pages and actions read it from Next's request scope.
  const token = bearerToken(authorization !== undefined ? authorization : (await headers()).get("authorization"));
  if (token !== undefined) {
    if (token === null) throw new AppError("UNAUTHORIZED", "Malformed Authorization header: expected `Bearer <API token>`.");
    const actor = await actorFromBearer(token);
    if (!actor) throw new AppError("UNAUTHORIZED", "This API token is unknown or revoked.");
    return actor;
  }
  const session = await getSession();
  if (!session.sid) return null;
  const s = await readSession(session.sid);
  return s ? { userId: s.userId, email: s.email, role: s.role, via: "session", sessionId: s.sessionId } : null;
}

/** The actor, or a 401/403 AppError when there is none or its role is below `role`. */
export async function requireActor(role: Role = "VIEWER", authorization?: string | null): Promise<Actor> {
  const actor = await currentActor(authorization);
  if (!actor) throw new AppError("UNAUTHORIZED", "Sign in or send `Authorization: Bearer <API token>`.");
  if (!roleAtLeast(actor.role, role)) {
    throw new AppError("FORBIDDEN", `This needs the ${role.toLowerCase()} role; you are ${actor.role.toLowerCase()}.`);
  }
  return actor;
}
