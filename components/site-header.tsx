import Link from "next/link";
import { UserBox } from "./user-box";

const links = [
  { href: "/guides", label: "Guides" },
  { href: "/tunables", label: "Tunables" },
  { href: "/hosts", label: "Hosts" },
  { href: "/runs", label: "Runs" },
  { href: "/runs/new", label: "Launch" },
  { href: "/compare", label: "Compare" },
  { href: "/experiments", label: "Experiments" },
  { href: "/schedules", label: "Schedules" },
  { href: "/import", label: "Import" },
];

/** The layout passes the sign-out server action in (components/ never import app/). */
export function SiteHeader({ signOut }: { signOut: () => Promise<void> }) {
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
        <UserBox signOut={signOut} />
      </div>
    </header>
  );
}
