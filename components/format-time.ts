/** A timestamp to the minute in UTC ("2026-11-23 22:52") for settings and admin tables; `empty` for none. */
export function minuteUtc(d: Date | null, empty = "never"): string {
  return d ? d.toISOString().slice(0, 16).replace("T", " ") : empty;
}
