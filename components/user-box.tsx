"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { useEffect, useState } from "react";

interface Me {
  email: string;
  role: string;
}

/**
 * The signed-in user, fetched by the browser so that rendering a public page (guides, share
 * links) never reads the session.
 */
export function UserBox({ signOut }: { signOut: () => Promise<void> }) {
  const pathname = usePathname();
  const [me, setMe] = useState<Me | null | undefined>(undefined);
  useEffect(() => {
    let live = true;
    fetch("/api/me", { cache: "no-store" })
      .then((r) => r.json() as Promise<{ user: Me | null }>)
      .then((b) => live && setMe(b.user))
      .catch(() => live && setMe(null));
    return () => {
      live = false;
    };
  }, [pathname]);
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
