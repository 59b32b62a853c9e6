import type { Actor } from "../../auth/actor";
import { roleAtLeast } from "../../auth/roles";
import { db } from "../../db";
import { AppError } from "../../http/app-error";
import { SLUG_RE } from "./create-comparison";

/**
 * Withdraws a share link: from then on its page is not found and its JSON and CSV answer 410.
 * Only the person who shared it, or an admin, may. Idempotent.
 */
export async function revokeComparison(slug: string, actor: Actor): Promise<{ id: string; slug: string }> {
  if (!SLUG_RE.test(slug)) throw new AppError("NOT_FOUND", "No shared comparison at this address.");
  const row = await db().comparison.findUnique({ where: { slug }, select: { id: true, createdById: true } });
  if (!row) throw new AppError("NOT_FOUND", "No shared comparison at this address.");
  if (row.createdById !== actor.userId && !roleAtLeast(actor.role, "ADMIN")) {
    throw new AppError("FORBIDDEN", "Only the person who shared this comparison, or an admin, can withdraw it.");
  }
  await db().comparison.updateMany({ where: { id: row.id, revokedAt: null }, data: { revokedAt: new Date() } });
  return { id: row.id, slug };
}
