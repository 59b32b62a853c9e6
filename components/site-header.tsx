import Link from "next/link";
import { MainNav } from "./main-nav";
import { MeProvider } from "./me-context";
import { ThemeToggle } from "./theme-toggle";
import { UserBox } from "./user-box";

/** The layout passes the sign-out server action in (components/ never import app/). */
export function SiteHeader({ signOut }: { signOut: () => Promise<void> }) {
  return (
    <header className="site-header">
      {/* One /api/me per navigation feeds the user box, the navigation (which links a role gets) and the Alerts link's badge. */}
      <MeProvider>
        <div className="inner">
          <Link href="/" className="brand">
            Probe<span>book</span>
          </Link>
          <MainNav />
          <ThemeToggle />
          <UserBox signOut={signOut} />
        </div>
      </MeProvider>
    </header>
  );
}
