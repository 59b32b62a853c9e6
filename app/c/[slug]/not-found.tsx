import Link from "next/link";
import { requestGoneShare } from "@/lib/server/comparisons/shared-page";
import { SharedGone } from "./shared-gone";

export default async function SharedComparisonNotFound() {
  // Withdrawn or expired: the page finds out and says so here (never waiting more than 5 s).
  const gone = await Promise.race([requestGoneShare().gone, new Promise<null>((resolve) => setTimeout(() => resolve(null), 5000))]);
  if (gone) return <SharedGone gone={gone} />;
  return (
    <>
      <h1>No shared comparison here</h1>
      <div className="empty">
        This link does not lead to a shared comparison: it may be incomplete (share links end in 32 characters) or mistyped.{" "}
        <Link href="/">Probebook</Link>
      </div>
    </>
  );
}
