"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { buttonAction, formAction } from "@/lib/auth/action-guard";
import type { FormState } from "@/lib/http/form-state";
import { audit } from "@/lib/server/audit/audit-request";
import { uuidSchema } from "@/lib/http/params";
import { changeRole } from "@/lib/server/users/change-role";
import { createUser } from "@/lib/server/users/create-user";
import { setUserDisabled } from "@/lib/server/users/set-user-disabled";
import { revokeUserSessions } from "@/lib/auth/session-store";
import { AppError } from "@/lib/http/app-error";

const roleSchema = z.enum(["VIEWER", "OPERATOR", "ADMIN"], { error: "Choose viewer, operator or admin." });

export async function createUserAction(_prev: FormState, form: FormData): Promise<FormState> {
  return formAction(form, "ADMIN", (error): FormState => ({ error }), async ({ form, actor }) => {
    const user = await createUser({
      email: String(form.get("email") ?? ""),
      password: String(form.get("password") ?? ""),
      role: roleSchema.parse(form.get("role")),
    });
    await audit({ actor: actor, action: "user.create", target: { type: "user", id: user.id }, details: { email: user.email, role: user.role } });
    revalidatePath("/admin/users");
    return { ok: `Created ${user.email} (${user.role.toLowerCase()}).` };
  });
}

export async function changeRoleAction(form: FormData): Promise<void> {
  return buttonAction(form, "ADMIN", async ({ form, actor }) => {
    const userId = uuidSchema().parse(form.get("userId"));
    const role = roleSchema.parse(form.get("role"));
    const { from } = await changeRole({ actorId: actor.userId, userId, role });
    await audit({ actor, action: "user.role", target: { type: "user", id: userId }, details: { from, to: role } });
    revalidatePath("/admin/users");
  });
}

// Admin controls over a user's access: disable/enable, end every session.

/** Disables or re-enables a user (an admin cannot disable themselves). */
export async function setUserDisabledAction(form: FormData): Promise<void> {
  return buttonAction(form, "ADMIN", async ({ form, actor }) => {
    const userId = uuidSchema().parse(form.get("userId"));
    const disabled = form.get("disabled") === "1";
    if (userId === actor.userId && disabled) throw new AppError("BAD_REQUEST", "You cannot disable your own account.");
    await setUserDisabled({ userId, disabled });
    await audit({ actor, action: disabled ? "user.disable" : "user.enable", target: { type: "user", id: userId } });
    revalidatePath("/admin/users");
  });
}

/** An admin signs a user out of every browser. */
export async function revokeUserSessionsAction(form: FormData): Promise<void> {
  return buttonAction(form, "ADMIN", async ({ form, actor }) => {
    const userId = uuidSchema().parse(form.get("userId"));
    const count = await revokeUserSessions(userId);
    await audit({ actor, action: "sessions.revoke", target: { type: "user", id: userId }, details: { count } });
    revalidatePath("/admin/users");
  });
}
