import Link from "next/link";
import { requestGoneShare } from "@/lib/server/comparisons/shared-page";
import { SharedGone } from "./shared-gone";

export default function SharedComparisonNotFound() {
  // Withdrawn or expired: the page said so before answering 404.
  const gone = requestGoneShare().gone;
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
