"use server";

import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { z } from "zod";
import { clientAddress } from "../http/client-address";
import { uuidSchema } from "../http/params";
import { safeNext } from "../http/safe-next";
import { recordAudit } from "../server/audit/record-audit";
import { attemptSignIn } from "../server/sessions/sign-in";
import { revokeSession, revokeUserSessions } from "./session-store";
import { currentActor } from "./actor";
import { getSession } from "./session";

export interface SignInState {
  message?: string;
  errors?: { email?: string[]; password?: string[] };
  email?: string;
}

const signInSchema = z.object({
  email: z.string().trim().toLowerCase().min(1, "Enter your email address.").email("Enter a valid email address."),
  password: z.string().min(1, "Enter your password."),
  next: z.string().optional(),
});

export async function signInAction(_prev: SignInState, form: FormData): Promise<SignInState> {
  const parsed = signInSchema.safeParse({
    email: form.get("email"),
    password: form.get("password"),
    next: form.get("next") ?? undefined,
  });
  const email = String(form.get("email") ?? "");
  if (!parsed.success) {
    const errors = z.flattenError(parsed.error).fieldErrors;
    return { errors: { email: errors.email, password: errors.password }, email };
  }
  const h = await headers();
  const result = await attemptSignIn({ email: parsed.data.email, password: parsed.data.password, ip: clientAddress(h), userAgent: h.get("user-agent") });
  if (!result.ok) return { message: result.message, email };
  const session = await getSession();
  session.sid = result.sessionId;
  await session.save();
  // Only a path on this site: an open redirect here would hand the session to a phishing page.
  redirect(safeNext(parsed.data.next));
}

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
  const actor = await currentActor().catch(() => null);
  if (!actor) redirect("/sign-in");
  const id = uuidSchema().safeParse(form.get("sessionId"));
  if (!id.success) return;
  // Only a session of this user: the id alone must not let anyone end someone else's.
  if (await revokeSession(id.data, actor.userId)) await recordAudit({ actor, action: "sessions.revoke", target: { type: "session", id: id.data }, ip: clientAddress(await headers()) });
  const { revalidatePath } = await import("next/cache");
  revalidatePath("/sign-out");
}
