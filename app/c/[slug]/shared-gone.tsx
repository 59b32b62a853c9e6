import Link from "next/link";
import type { GoneShare } from "@/lib/server/comparisons/shared-page";

const when = (d: Date) => `${d.toLocaleString("en-GB", { timeZone: "UTC", dateStyle: "medium", timeStyle: "short" })} UTC`;

/** The page of a share link that was withdrawn or has expired: what happened and when. */
export function SharedGone({ gone }: { gone: GoneShare }) {
  return (
    <>
      <h1>{gone.reason === "withdrawn" ? "Shared comparison withdrawn" : "Shared comparison expired"}</h1>
      <div className="empty" data-testid="share-gone">
        <p style={{ marginTop: 0 }}>
          {gone.reason === "withdrawn" ? `This link was withdrawn by its owner on ${when(gone.at)}.` : `This link expired on ${when(gone.at)}.`} The
          comparison it showed is no longer public; ask whoever sent it for a new link.
        </p>
        <p style={{ marginBottom: 0 }}>
          <Link href="/">Probebook</Link>
        </p>
      </div>
    </>
  );
}
