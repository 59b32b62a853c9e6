"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { useMe } from "./me-context";

/**
 * The signed-in user, as the header's MeProvider learnt it from /api/me. The account and admin
 * pages sit in a disclosure under the user's name, so the header is one row at any width and
 * Sign out always shows.
 */
export function UserBox({ signOut }: { signOut: () => Promise<void> }) {
  const me = useMe().user;
  // A new page closes the disclosure (the header itself stays mounted across navigations).
  const pathname = usePathname();
  if (me === undefined) return <div className="user-box" aria-busy="true" />;
  return (
    <div className="user-box">
      {me ? (
        <>
          <details className="account-menu" key={pathname}>
            <summary>
              <span data-testid="signed-in-as">
                {me.email} · {me.role.toLowerCase()}
              </span>
            </summary>
            <div className="account-links">
              <Link href="/settings/tokens">Tokens</Link>
              <Link href="/settings/shares">Shares</Link>
              {me.role === "ADMIN" ? <Link href="/admin/users">Users</Link> : null}
              {me.role === "ADMIN" ? <Link href="/admin/audit">Audit</Link> : null}
              {me.role === "ADMIN" ? <Link href="/admin/webhooks">Webhooks</Link> : null}
              {me.role === "ADMIN" ? <Link href="/admin/settings">Settings</Link> : null}
            </div>
          </details>
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
