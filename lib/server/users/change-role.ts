import type { Role } from "@prisma/client";
import { revokeUserSessions } from "../../auth/session-store";
import { db } from "../../db";
import { AppError } from "../../http/app-error";

/**
 * Gives a user another role and answers the role it had. An admin cannot demote themselves: someone
 * must always be able to undo a mistake. A change signs the user out everywhere: whatever they had
 * open was granted under the old role.
 */
export async function changeRole({ actorId, userId, role }: { actorId: string; userId: string; role: Role }): Promise<{ from: Role }> {
  if (userId === actorId && role !== "ADMIN") throw new AppError("BAD_REQUEST", "You cannot remove your own admin role.");
  const before = await db().user.findUnique({ where: { id: userId }, select: { role: true } });
  if (!before) throw new AppError("NOT_FOUND", "No such user.");
  await db().user.update({ where: { id: userId }, data: { role } });
  if (before.role !== role) await revokeUserSessions(userId);
  return { from: before.role };
}
