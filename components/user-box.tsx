"use client";

import Link from "next/link";
import { useMe } from "./me-context";

/** The signed-in user, as the header's MeProvider learnt it from /api/me. */
export function UserBox({ signOut }: { signOut: () => Promise<void> }) {
  const me = useMe().user;
  if (me === undefined) return <div className="user-box" aria-busy="true" />;
  return (
    <div className="user-box">
      {me ? (
        <>
          <span data-testid="signed-in-as">
            {me.email} · {me.role.toLowerCase()}
          </span>
          <Link href="/settings/tokens">Tokens</Link>
          <Link href="/settings/shares">Shares</Link>
          {me.role === "ADMIN" ? <Link href="/admin/users">Users</Link> : null}
          {me.role === "ADMIN" ? <Link href="/admin/audit">Audit</Link> : null}
          {me.role === "ADMIN" ? <Link href="/admin/webhooks">Webhooks</Link> : null}
          {me.role === "ADMIN" ? <Link href="/admin/settings">Settings</Link> : null}
          <form action={signOut}>
            <button className="btn-link" type="submit">
              Sign out
            </button>
          </form>
        </>
      ) : (
        <Link href="/sign-in">Sign in</Link>
      )}
    </div>
  );
}
