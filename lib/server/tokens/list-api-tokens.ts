import { db } from "../../db";

/** API tokens, newest first: one user's, or everyone's when userId is null (admins). Never the secret. */
export async function listApiTokens({ userId }: { userId: string | null }) {
  return db().apiToken.findMany({
    where: userId === null ? {} : { userId },
    orderBy: { createdAt: "desc" },
    select: { id: true, name: true, prefix: true, createdAt: true, lastUsedAt: true, revokedAt: true, expiresAt: true, user: { select: { email: true } } },
  });
}
