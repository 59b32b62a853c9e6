import type { Actor } from "../../auth/actor";
import { assertOwnerOrAdmin } from "../../auth/ownership";
import { db } from "../../db";
import { AppError } from "../../http/app-error";
import { SLUG_RE } from "./create-comparison";

/**
 * Deletes a shared comparison and its frozen snapshot (whoever shared it, or an admin). Unlike a
 * withdrawal, which answers 410 to link holders and stays in the list, nothing remains: the
 * link answers 404. The runs themselves are untouched.
 */
export async function deleteComparison({ slug, actor }: { slug: string; actor: Actor }): Promise<{ id: string; slug: string; title: string }> {
  if (!SLUG_RE.test(slug)) throw new AppError("NOT_FOUND", "No shared comparison at this address.");
  const row = await db().comparison.findUnique({ where: { slug }, select: { id: true, title: true, createdById: true } });
  if (!row) throw new AppError("NOT_FOUND", "No shared comparison at this address.");
  assertOwnerOrAdmin(actor, row.createdById, "this comparison");
  await db().comparison.deleteMany({ where: { id: row.id } });
  return { id: row.id, slug, title: row.title };
}
