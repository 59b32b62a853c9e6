"use server";

import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { currentActor } from "@/lib/auth/actor";
import { buttonAction } from "@/lib/auth/action-guard";
import { getSession } from "@/lib/auth/session";
import { revokeSession, revokeUserSessions } from "@/lib/auth/session-store";
import { clientAddress } from "@/lib/http/client-address";
import { uuidSchema } from "@/lib/http/params";
import { recordAudit } from "@/lib/server/audit/record-audit";

export async function signOutAction(): Promise<void> {
  const actor = await currentActor().catch(() => null);
  const session = await getSession();
  // The row is revoked, so a copy of the cookie stops working too.
  if (session.sid) await revokeSession(session.sid);
  if (actor) await recordAudit({ actor, action: "sign-out", target: actor.sessionId ? { type: "session", id: actor.sessionId } : null, ip: clientAddress(await headers()) });
  session.destroy();
  redirect("/");
}

/** Revokes every session of the signed-in user, this browser's included. */
export async function signOutEverywhereAction(): Promise<void> {
  const actor = await currentActor().catch(() => null);
  const session = await getSession();
  if (actor) {
    const count = await revokeUserSessions(actor.userId);
    await recordAudit({ actor, action: "sessions.revoke", target: { type: "user", id: actor.userId }, ip: clientAddress(await headers()), details: { count, everywhere: true } });
  }
  session.destroy();
  redirect("/sign-in");
}

/** Ends one of the signed-in user's own sessions (another browser), from the sign-out page. */
export async function revokeOwnSessionAction(form: FormData): Promise<void> {
  return buttonAction(form, "VIEWER", async ({ form, actor }) => {
    const id = uuidSchema().safeParse(form.get("sessionId"));
    if (!id.success) return;
    // Only a session of this user: the id alone must not let anyone end someone else's.
    if (await revokeSession(id.data, actor.userId)) await recordAudit({ actor, action: "sessions.revoke", target: { type: "session", id: id.data }, ip: clientAddress(await headers()) });
    const { revalidatePath } = await import("next/cache");
    revalidatePath("/sign-out");
  });
}
