"use server";

// Admin controls over a user's access: disable/enable, end every session.
import { revalidatePath } from "next/cache";
import { requireActor } from "../../auth/actor";
import { revokeUserSessions } from "../../auth/session-store";
import { db } from "../../db";
import { AppError } from "../../http/app-error";
import { uuidSchema } from "../../http/params";
import { audit } from "../audit/audit-request";
import { setUserDisabled } from "./set-user-disabled";

/** Disables or re-enables a user (an admin cannot disable themselves). */
export async function setUserDisabledAction(form: FormData): Promise<void> {
  const actor = await requireActor("ADMIN");
  const userId = uuidSchema().parse(form.get("userId"));
  const disabled = form.get("disabled") === "1";
  if (userId === actor.userId && disabled) throw new AppError("BAD_REQUEST", "You cannot disable your own account.");
  await setUserDisabled(db(), userId, disabled);
  await audit({ actor, action: disabled ? "user.disable" : "user.enable", target: { type: "user", id: userId } });
  revalidatePath("/admin/users");
}

/** An admin signs a user out of every browser. */
export async function revokeUserSessionsAction(form: FormData): Promise<void> {
  const actor = await requireActor("ADMIN");
  const userId = uuidSchema().parse(form.get("userId"));
  const count = await revokeUserSessions(userId);
  await audit({ actor, action: "sessions.revoke", target: { type: "user", id: userId }, details: { count } });
  revalidatePath("/admin/users");
}
