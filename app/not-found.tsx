import type { Metadata } from "next";
import Link from "next/link";

export const metadata: Metadata = { title: "Not found", robots: { index: false, follow: false } };

/**
 * Every 404 of the app (an unknown address, a run or host id that does not exist): inside the
 * app's own layout, so it keeps the header and the theme; Next.js still answers status 404.
 */
export default function NotFound() {
  return (
    <>
      <h1>Page not found</h1>
      <div className="empty" data-testid="not-found">
        <p style={{ marginTop: 0 }}>There is nothing at this address: the link may be mistyped, or what it pointed to was deleted.</p>
        <p style={{ marginBottom: 0 }}>
          <Link href="/">Probebook home</Link> · <Link href="/runs">Runs</Link> · <Link href="/hosts">Hosts</Link>
        </p>
      </div>
    </>
  );
}
