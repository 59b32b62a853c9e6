import type { Metadata } from "next";
import Link from "next/link";
import { currentActor } from "@/lib/auth/actor";
import { signOutAction, signOutEverywhereAction } from "@/lib/auth/actions";

export const metadata: Metadata = { title: "Sign out" };

export default async function SignOutPage() {
  const actor = await currentActor().catch(() => null);
  if (!actor) {
    return (
      <>
        <h1>Signed out</h1>
        <p className="muted">
          You are not signed in. <Link href="/sign-in">Sign in</Link>
        </p>
      </>
    );
  }
  return (
    <>
      <h1>Sign out</h1>
      <p className="muted">You are signed in as {actor.email}.</p>
      <form action={signOutAction}>
        <button className="btn" type="submit">
          Sign out
        </button>
      </form>
      <p className="muted">Signed in on another computer, or worried someone copied your session? This ends every session of yours, this one too.</p>
      <form action={signOutEverywhereAction}>
        <button className="btn btn-danger" type="submit">
          Sign out everywhere
        </button>
      </form>
    </>
  );
}
