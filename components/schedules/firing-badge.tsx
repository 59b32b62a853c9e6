const words: Record<string, string> = {
  QUEUED: "queued",
  MISSED_OFFLINE: "missed (offline)",
  SKIPPED_BUSY: "skipped (busy)",
  SKIPPED_QUIET: "skipped (quiet hours)",
  REFUSED: "refused",
};

/** A firing's outcome in words, coloured by kind; `count` for the list page's summary of a due time. */
export function FiringBadge({ outcome, count }: { outcome: string; count?: number }) {
  return (
    <span className={`badge badge-${outcome === "QUEUED" ? "QUEUED-firing" : outcome}`}>
      {words[outcome] ?? outcome.toLowerCase()}
      {count !== undefined && count > 1 ? ` ×${count}` : ""}
    </span>
  );
}
