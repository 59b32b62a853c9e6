import { db } from "../../db";

/** Every user, oldest first, with the number of API tokens still in force. */
export async function listUsers() {
  return db().user.findMany({
    orderBy: { createdAt: "asc" },
    select: { id: true, email: true, role: true, createdAt: true, disabledAt: true, _count: { select: { apiTokens: { where: { revokedAt: null } } } } },
  });
}
