import { db } from "../../db";

/**
 * Deletes sessions that can never be used again: past their expiry, or revoked (sign-out,
 * "sign out everywhere", a disabled user). Such a row only keeps an old address and user agent;
 * a cookie naming a deleted session is refused exactly like one naming a revoked session. Runs
 * daily on every instance (lib/instance/instance.ts). Returns how many rows went.
 */
export async function pruneSessions(opts: { now?: Date } = {}): Promise<number> {
  const now = opts.now ?? new Date();
  const r = await db().session.deleteMany({ where: { OR: [{ expiresAt: { lte: now } }, { revokedAt: { lte: now } }] } });
  return r.count;
}
