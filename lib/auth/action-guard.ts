// Every server action (app/**/actions.ts) runs through one of these two guards, the actions'
// page-guard.ts. An action is a public POST endpoint anyone can call with any arguments; Next
// answers anything an action throws with HTTP 500 and an error digest. Here each refusal becomes
// the app's own answer instead: a redirect to sign-in (back to the page the form was on), the
// "Not allowed" page, or the form's own error message. Only a real failure still throws.
import type { Role } from "@prisma/client";
import { headers } from "next/headers";
import { redirect, unstable_rethrow } from "next/navigation";
import { z } from "zod";
import { AppError } from "../http/app-error";
import { safeNext } from "../http/safe-next";
import { requireActor, type Actor } from "./actor";

/** Why /forbidden was shown; a fixed vocabulary, so no caller can put words on the page. */
export type Refusal = "forbidden" | "not-found" | "invalid";

/** The form the action was given; anything else (a string, nothing) is a refusal. */
function formOf(arg: unknown): FormData {
  if (arg instanceof FormData) return arg;
  throw new AppError("BAD_REQUEST", "This action takes a form.");
}

/** /sign-in, coming back to the page the form was on (its Referer, reduced to a path of ours). */
async function signInPath(): Promise<string> {
  let back = "/";
  try {
    const referer = (await headers()).get("referer");
    if (referer) back = safeNext(`${new URL(referer).pathname}${new URL(referer).search}`);
  } catch {
    // An unreadable Referer: back to the start page.
  }
  return `/sign-in?next=${encodeURIComponent(back)}`;
}

function refusalOf(err: unknown): Refusal | null {
  if (err instanceof AppError) return err.code === "FORBIDDEN" ? "forbidden" : err.code === "NOT_FOUND" ? "not-found" : "invalid";
  if (err instanceof z.ZodError) return "invalid";
  return null;
}

async function signedIn(role: Role): Promise<Actor> {
  try {
    return await requireActor(role);
  } catch (err) {
    if (err instanceof AppError && err.code === "UNAUTHORIZED") redirect(await signInPath());
    if (err instanceof AppError && err.code === "FORBIDDEN") redirect(`/forbidden?need=${role.toLowerCase()}`);
    throw err;
  }
}

/**
 * A button's action (a form of hidden fields, no state to show): signed out → sign-in; below
 * `role` → "Not allowed" naming the role; any other refusal (an id that is not one, a use case's
 * AppError, a field zod refuses) → "Not allowed" with the kind of refusal.
 */
export async function buttonAction(arg: unknown, role: Role, fn: (input: { form: FormData; actor: Actor }) => Promise<void>): Promise<void> {
  const actor = await signedIn(role);
  try {
    await fn({ form: formOf(arg), actor });
  } catch (err) {
    // redirect(), notFound() and revalidation signal through throws of their own: let them pass.
    unstable_rethrow(err);
    const refusal = refusalOf(err);
    if (refusal) redirect(`/forbidden?refused=${refusal}`);
    throw err;
  }
}

/**
 * A form's action whose state the form shows: signed out → sign-in (when `role` is given); any
 * other refusal, below `role` included → `shown(message)`, the form's error state with the
 * AppError's or zod's words.
 */
export async function formAction<S, R extends Role | null>(
  arg: unknown,
  role: R,
  shown: (message: string) => S,
  fn: (input: { form: FormData; actor: R extends Role ? Actor : null }) => Promise<S>,
): Promise<S> {
  try {
    const actor = (role ? await requireActor(role) : null) as R extends Role ? Actor : null;
    return await fn({ form: formOf(arg), actor });
  } catch (err) {
    unstable_rethrow(err);
    if (err instanceof AppError && err.code === "UNAUTHORIZED") redirect(await signInPath());
    if (err instanceof AppError) return shown(err.message);
    if (err instanceof z.ZodError) return shown(err.issues.map((i) => i.message).join(" "));
    throw err;
  }
}
