import type { Metadata, Viewport } from "next";
import { headers } from "next/headers";
import { connection } from "next/server";
import type { ReactNode } from "react";
import { SiteHeader } from "@/components/site-header";
import { applyThemeScript } from "@/lib/theme/theme";
import { signOutAction } from "./sign-out/actions";
import "./globals.css";

export const metadata: Metadata = {
  title: { default: "Probebook", template: "%s · Probebook" },
  description: "Tuning guides and live storage and memory probes for Linux, run on your own hosts.",
};

export const viewport: Viewport = { width: "device-width", initialScale: 1 };

export default async function RootLayout({ children }: { children: ReactNode }) {
  // Every page renders per request so that Next.js can put this request's CSP nonce on its
  // scripts (proxy.ts); a prerendered page would carry none and be blocked.
  await connection();
  const nonce = (await headers()).get("x-nonce") ?? undefined;
  return (
    // The theme script sets data-theme on <html> before React hydrates it.
    <html lang="en" suppressHydrationWarning>
      <head>
        <script nonce={nonce} dangerouslySetInnerHTML={{ __html: applyThemeScript }} />
      </head>
      <body>
        <a className="skip-link" href="#main">
          Skip to content
        </a>
        <SiteHeader signOut={signOutAction} />
        <main id="main">{children}</main>
      </body>
    </html>
  );
}
