/** A timestamp to the minute in UTC ("2026-11-23 22:52") for settings and admin tables; `empty` for none. */
export function minuteUtc(d: Date | null, empty = "never"): string {
  return d ? d.toISOString().slice(0, 16).replace("T", " ") : empty;
}

/**
 * When a run happened, for the runs table and the run page: a reference run (a guide's published
 * table) has no date of its own — its stored created time is a placeholder — so it reads as its
 * source's year when the profile carries one, else "undated".
 */
export function runWhen(run: { origin: string; createdAt: string; profile?: unknown }): string {
  if (run.origin === "REFERENCE") {
    const ref = (run.profile as { reference?: { year?: unknown } } | null | undefined)?.reference;
    const year = typeof ref?.year === "number" || typeof ref?.year === "string" ? String(ref.year) : "";
    return /^\d{4}$/.test(year) ? `published ${year}` : "undated";
  }
  return `${run.createdAt.slice(0, 16).replace("T", " ")}`;
}
