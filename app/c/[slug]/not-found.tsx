import Link from "next/link";

export default function SharedComparisonNotFound() {
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
