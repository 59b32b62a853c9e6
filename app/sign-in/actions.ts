"use server";

import { headers } from "next/headers";
import { redirect } from "next/navigation";
import { z } from "zod";
import { formAction } from "@/lib/auth/action-guard";
import { clientAddress } from "@/lib/http/client-address";
import { safeNext } from "@/lib/http/safe-next";
import { attemptSignIn } from "@/lib/server/sessions/sign-in";
import { getSession } from "@/lib/auth/session";
import type { SignInState } from "@/components/sign-in-form";


const signInSchema = z.object({
  email: z.string().trim().toLowerCase().min(1, "Enter your email address.").email("Enter a valid email address."),
  password: z.string().min(1, "Enter your password."),
  next: z.string().optional(),
});

export async function signInAction(_prev: SignInState, form: FormData): Promise<SignInState> {
  return formAction(form, null, (message): SignInState => ({ message }), async ({ form }) => {
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
  });
}
