import type { Role } from "@prisma/client";
import { db } from "../../db";
import { AppError } from "../../http/app-error";

/** Gives a user another role. An admin cannot demote themselves: someone must always be able to undo a mistake. */
export async function changeRole({ actorId, userId, role }: { actorId: string; userId: string; role: Role }): Promise<void> {
  if (userId === actorId && role !== "ADMIN") throw new AppError("BAD_REQUEST", "You cannot remove your own admin role.");
  await db().user.update({ where: { id: userId }, data: { role } });
}
