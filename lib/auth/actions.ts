"use server";

import { redirect } from "next/navigation";
import { z } from "zod";
import { db } from "../db";
import { dummyPasswordHash, verifyPassword } from "./password";
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

/** Only same-site paths: an open redirect after sign-in would hand the session to a phishing page. */
function safeNext(next: string | undefined): string {
  return next && next.startsWith("/") && !next.startsWith("//") ? next : "/";
}

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
  const user = await db().user.findUnique({ where: { email: parsed.data.email }, select: { id: true, passwordHash: true } });
  const ok = await verifyPassword(user?.passwordHash ?? (await dummyPasswordHash()), parsed.data.password);
  if (!user || !ok) {
    return { message: "Wrong email or password.", email };
  }
  const session = await getSession();
  session.userId = user.id;
  await session.save();
  redirect(safeNext(parsed.data.next));
}

export async function signOutAction(): Promise<void> {
  const session = await getSession();
  session.destroy();
  redirect("/");
}
