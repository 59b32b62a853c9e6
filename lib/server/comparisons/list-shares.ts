import type { Actor } from "../../auth/actor";
import { roleAtLeast } from "../../auth/roles";
import { db } from "../../db";

/** Share links the actor made (an admin sees everyone's), newest first, with their state. */
export async function listShares(actor: Actor) {
  const admin = roleAtLeast(actor.role, "ADMIN");
  const rows = await db().comparison.findMany({
    where: admin ? {} : { createdById: actor.userId },
    orderBy: { createdAt: "desc" },
    take: 500,
    select: { slug: true, title: true, createdAt: true, expiresAt: true, revokedAt: true, createdBy: { select: { email: true } } },
  });
  const now = new Date();
  return rows.map((r) => ({
    slug: r.slug,
    title: r.title,
    createdAt: r.createdAt,
    expiresAt: r.expiresAt,
    revokedAt: r.revokedAt,
    sharedBy: r.createdBy?.email ?? null,
    state: r.revokedAt ? ("withdrawn" as const) : r.expiresAt && r.expiresAt <= now ? ("expired" as const) : ("live" as const),
  }));
}
