"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { requireActor } from "../../auth/actor";
import { db } from "../../db";
import { AppError } from "../../http/app-error";
import { revokeUserSessions } from "../../auth/session-store";
import { uuidSchema } from "../../http/params";
import { audit } from "../audit/audit-request";
import { createApiToken, expiresInDaysSchema } from "../tokens/create-api-token";
import { createUser } from "../users/create-user";

export interface FormState {
  error?: string;
  ok?: string;
  token?: string;
}

async function asForm(fn: () => Promise<FormState>): Promise<FormState> {
  try {
    return await fn();
  } catch (err) {
    if (err instanceof AppError) return { error: err.message };
    if (err instanceof z.ZodError) return { error: err.issues.map((i) => i.message).join(" ") };
    throw err;
  }
}

const roleSchema = z.enum(["VIEWER", "OPERATOR", "ADMIN"], { error: "Choose viewer, operator or admin." });

export async function createUserAction(_prev: FormState, form: FormData): Promise<FormState> {
  return asForm(async () => {
    const actor = await requireActor("ADMIN");
    const user = await createUser(db(), {
      email: String(form.get("email") ?? ""),
      password: String(form.get("password") ?? ""),
      role: roleSchema.parse(form.get("role")),
    });
    await audit({ actor, action: "user.create", target: { type: "user", id: user.id }, details: { email: user.email, role: user.role } });
    revalidatePath("/admin/users");
    return { ok: `Created ${user.email} (${user.role.toLowerCase()}).` };
  });
}

export async function changeRoleAction(form: FormData): Promise<void> {
  const actor = await requireActor("ADMIN");
  const userId = uuidSchema().parse(form.get("userId"));
  const role = roleSchema.parse(form.get("role"));
  // An admin cannot demote themselves: there must always be someone who can undo a mistake.
  if (userId === actor.userId && role !== "ADMIN") throw new AppError("BAD_REQUEST", "You cannot remove your own admin role.");
  const before = await db().user.findUnique({ where: { id: userId }, select: { role: true } });
  if (!before) throw new AppError("NOT_FOUND", "No such user.");
  await db().user.update({ where: { id: userId }, data: { role } });
  // A role change signs the user out everywhere: whatever they had open was granted under the old role.
  if (before.role !== role) await revokeUserSessions(userId);
  await audit({ actor, action: "user.role", target: { type: "user", id: userId }, details: { from: before.role, to: role } });
  revalidatePath("/admin/users");
}

export async function createTokenAction(_prev: FormState, form: FormData): Promise<FormState> {
  return asForm(async () => {
    const actor = await requireActor("VIEWER");
    const expiresInDays = expiresInDaysSchema.parse(form.get("expiresInDays") || undefined);
    const t = await createApiToken(db(), { userId: actor.userId, name: String(form.get("name") ?? ""), expiresInDays });
    await audit({ actor, action: "token.create", target: { type: "api-token", id: t.id }, details: { name: t.name, expiresAt: t.expiresAt?.toISOString() ?? null } });
    revalidatePath("/settings/tokens");
    const until = t.expiresAt ? ` It expires on ${t.expiresAt.toISOString().slice(0, 10)}.` : "";
    return { ok: `Token "${t.name}" created. Copy it now: it is not shown again.${until}`, token: t.token };
  });
}

export async function revokeTokenAction(form: FormData): Promise<void> {
  const actor = await requireActor("VIEWER");
  const id = uuidSchema().parse(form.get("tokenId"));
  const token = await db().apiToken.findUnique({ where: { id }, select: { userId: true } });
  if (!token) throw new AppError("NOT_FOUND", "No such token.");
  // Users revoke their own tokens; admins may revoke anyone's.
  if (token.userId !== actor.userId) await requireActor("ADMIN");
  await db().apiToken.updateMany({ where: { id, revokedAt: null }, data: { revokedAt: new Date() } });
  await audit({ actor, action: "token.revoke", target: { type: "api-token", id } });
  revalidatePath("/settings/tokens");
}
