import type { Metadata } from "next";
import { SignInForm } from "@/components/sign-in-form";
import { signInAction } from "./actions";

export const metadata: Metadata = { title: "Sign in" };

export default async function SignInPage({ searchParams }: { searchParams: Promise<{ next?: string }> }) {
  const { next } = await searchParams;
  return (
    <>
      <h1>Sign in</h1>
      <p className="muted">
        Hosts, runs and launching need an account. An administrator creates one with{" "}
        <code>npm run admin -- user create --email you@example.com --password … --role operator</code>.
      </p>
      <SignInForm next={next} signIn={signInAction} />
    </>
  );
}
