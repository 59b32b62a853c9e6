import Link from "next/link";
import { currentActor } from "@/lib/auth/actor";
import { signOutAction } from "@/lib/auth/actions";

const links = [
  { href: "/guides", label: "Guides" },
  { href: "/tunables", label: "Tunables" },
  { href: "/hosts", label: "Hosts" },
  { href: "/runs", label: "Runs" },
  { href: "/compare", label: "Compare" },
  { href: "/import", label: "Import" },
];

export async function SiteHeader() {
  const actor = await currentActor().catch(() => null);
  return (
    <header className="site-header">
      <div className="inner">
        <Link href="/" className="brand">
          Probe<span>book</span>
        </Link>
        <nav className="nav" aria-label="Main">
          {links.map((l) => (
            <Link key={l.href} href={l.href}>
              {l.label}
            </Link>
          ))}
        </nav>
        <div className="user-box">
          {actor ? (
            <>
              <span data-testid="signed-in-as">
                {actor.email} · {actor.role.toLowerCase()}
              </span>
              <form action={signOutAction}>
                <button className="btn-link" type="submit">
                  Sign out
                </button>
              </form>
            </>
          ) : (
            <Link href="/sign-in">Sign in</Link>
          )}
        </div>
      </div>
    </header>
  );
}
