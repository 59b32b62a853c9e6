import type { Role } from "@prisma/client";

const rank: Record<Role, number> = { VIEWER: 1, OPERATOR: 2, ADMIN: 3 };

export function roleAtLeast(role: Role, needed: Role): boolean {
  return rank[role] >= rank[needed];
}

export const ROLE_NAMES = ["viewer", "operator", "admin"] as const;
export type RoleName = (typeof ROLE_NAMES)[number];

export function roleFromName(name: string): Role | null {
  const r = name.trim().toUpperCase();
  return r === "VIEWER" || r === "OPERATOR" || r === "ADMIN" ? r : null;
}
