"use client";

import Link from "next/link";
import { usePathname } from "next/navigation";
import { useState } from "react";
import { AlertsLink } from "./alerts-link";
import { useMe } from "./me-context";

/** `launch`: only for roles that may launch and import (a viewer would land on "Not allowed"). */
const links = [
  { href: "/guides", label: "Guides" },
  { href: "/tunables", label: "Tunables" },
  { href: "/hosts", label: "Hosts" },
  { href: "/runs", label: "Runs" },
  { href: "/runs/new", label: "Launch", launch: true },
  { href: "/compare", label: "Compare" },
  { href: "/experiments", label: "Experiments" },
  { href: "/schedules", label: "Schedules" },
  { href: "/import", label: "Import", launch: true },
];

/**
 * The main navigation. On a phone it folds behind a "Menu" button (globals.css shows the button
 * and hides the links below 860 px), so the header stays one row and Sign out on screen.
 */
export function MainNav() {
  const { user } = useMe();
  const pathname = usePathname();
  // Open for the page it was opened on: following a link closes it without an effect.
  const [openOn, setOpenOn] = useState<string | null>(null);
  const open = openOn === pathname;
  // Signed out: the links lead to sign-in, which is fine. Unknown yet: hidden, so a viewer never sees them flash.
  const mayLaunch = user === null || (user !== undefined && user.role !== "VIEWER");
  return (
    <>
      <button type="button" className="btn nav-toggle" aria-expanded={open} aria-controls="main-nav" onClick={() => setOpenOn(open ? null : pathname)}>
        Menu
      </button>
      <nav id="main-nav" className="nav" aria-label="Main" data-open={open ? "true" : undefined}>
        {links
          .filter((l) => mayLaunch || !l.launch)
          .map((l) => (
            <Link key={l.href} href={l.href} aria-current={pathname === l.href ? "page" : undefined}>
              {l.label}
            </Link>
          ))}
        <AlertsLink />
      </nav>
    </>
  );
}
