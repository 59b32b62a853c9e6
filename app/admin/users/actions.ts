"use server";

import { revalidatePath } from "next/cache";
import { z } from "zod";
import { requireActor } from "@/lib/auth/actor";
import { formState, type FormState } from "@/lib/http/form-state";
import { audit } from "@/lib/server/audit/audit-request";
import { uuidSchema } from "@/lib/http/params";
import { changeRole } from "@/lib/server/users/change-role";
import { createUser } from "@/lib/server/users/create-user";

const roleSchema = z.enum(["VIEWER", "OPERATOR", "ADMIN"], { error: "Choose viewer, operator or admin." });

export async function createUserAction(_prev: FormState, form: FormData): Promise<FormState> {
  return formState(async () => {
    const actor = await requireActor("ADMIN");
    const user = await createUser({
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
  const { from } = await changeRole({ actorId: actor.userId, userId, role });
  await audit({ actor, action: "user.role", target: { type: "user", id: userId }, details: { from, to: role } });
  revalidatePath("/admin/users");
}
