import type { Actor } from "../../auth/actor";
import { roleAtLeast } from "../../auth/roles";
import { db } from "../../db";
import { AppError } from "../../http/app-error";

/** Revokes a token: users revoke their own, admins anyone's. Revoking twice changes nothing. */
export async function revokeApiToken({ tokenId, actor }: { tokenId: string; actor: Pick<Actor, "userId" | "role"> }): Promise<void> {
  const token = await db().apiToken.findUnique({ where: { id: tokenId }, select: { userId: true } });
  if (!token) throw new AppError("NOT_FOUND", "No such token.");
  if (token.userId !== actor.userId && !roleAtLeast(actor.role, "ADMIN")) {
    throw new AppError("FORBIDDEN", `This needs the admin role; you are ${actor.role.toLowerCase()}.`);
  }
  await db().apiToken.updateMany({ where: { id: tokenId, revokedAt: null }, data: { revokedAt: new Date() } });
}
