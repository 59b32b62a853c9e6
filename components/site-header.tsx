import Link from "next/link";
import { AlertsLink } from "./alerts-link";
import { MeProvider } from "./me-context";
import { ThemeToggle } from "./theme-toggle";
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
      {/* One /api/me per navigation feeds both the user box and the Alerts link's badge. */}
      <MeProvider>
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
            <AlertsLink />
          </nav>
          <ThemeToggle />
          <UserBox signOut={signOut} />
        </div>
      </MeProvider>
    </header>
  );
}
