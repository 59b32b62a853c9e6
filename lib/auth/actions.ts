"use server";

import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { AppError } from "../http/app-error";
import { assertUnderLimit, clientKey, countFailure, resetRateLimit } from "../http/rate-limit";
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
  const client = clientKey(await headers());
  try {
    // Failed attempts count, per account and per client address; a correct password resets the account's count.
    await assertUnderLimit("signInEmail", parsed.data.email);
    await assertUnderLimit("signInClient", client);
  } catch (err) {
    if (err instanceof AppError) return { message: err.message, email };
    throw err;
  }
  const user = await db().user.findUnique({ where: { email: parsed.data.email }, select: { id: true, passwordHash: true } });
  const ok = await verifyPassword(user?.passwordHash ?? (await dummyPasswordHash()), parsed.data.password);
  if (!user || !ok) {
    await countFailure("signInEmail", parsed.data.email);
    await countFailure("signInClient", client);
    return { message: "Wrong email or password.", email };
  }
  await resetRateLimit("signInEmail", parsed.data.email);
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
