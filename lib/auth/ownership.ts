import type { Actor } from "./actor";
import { AppError } from "../http/app-error";
import { roleAtLeast } from "./roles";

/**
 * Operators change what they made; admins change anything. A row nobody made (reference data,
 * or whose creator was deleted) is the admins' alone.
 */
export function assertOwnerOrAdmin(actor: Actor, createdById: string | null, what: string): void {
  if (roleAtLeast(actor.role, "ADMIN")) return;
  if (!roleAtLeast(actor.role, "OPERATOR")) {
    throw new AppError("FORBIDDEN", `Changing ${what} needs the operator role; you are ${actor.role.toLowerCase()}.`);
  }
  if (createdById === null || createdById !== actor.userId) {
    throw new AppError("FORBIDDEN", `Only whoever made ${what}, or an admin, can change or delete it.`);
  }
}

/** Whether the actor may change or delete a row made by createdById (for showing buttons). */
export function mayChange(actor: Actor | { userId: string; role: Actor["role"] }, createdById: string | null): boolean {
  return roleAtLeast(actor.role, "ADMIN") || (roleAtLeast(actor.role, "OPERATOR") && createdById !== null && createdById === actor.userId);
}
