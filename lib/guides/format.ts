/**
 * Formatting and anchor helpers shared by server and client components. A fixed locale keeps
 * the server-rendered HTML and the hydrated client output identical (no hydration mismatch
 * from a browser whose locale formats numbers differently).
 */

const numberFormat = new Intl.NumberFormat("en-US", { maximumFractionDigits: 3 });

/** 1234567.891 → "1,234,567.891". Published values are shown with their own precision (up to 3 decimals). */
export function formatNumber(value: number): string {
  return numberFormat.format(value);
}

/** Kebab-case id from any text: "vm.zone_reclaim_mode" → "vm-zone-reclaim-mode". */
export function slugify(text: string): string {
  return text
    .normalize("NFKD")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "");
}

/** The id of a tunable's row on /tunables; the Tunable links in guides point at it. */
export function tunableAnchor(name: string): string {
  return slugify(name) || "tunable";
}

/** Link target of a tunable in the tunables index. */
export function tunableHref(name: string): string {
  return `/tunables#${tunableAnchor(name)}`;
}

/**
 * "<probe>:<preset>" → "/runs/new?probe=<probe>&preset=<preset>": the launch form of the probe with the
 * preset filled in. Returns null when the id is not "probe:preset".
 */
export function reproduceHref(presetId: string): string | null {
  const m = /^([a-z][a-z0-9]*):([a-z0-9]+(?:-[a-z0-9]+)*)$/.exec(presetId);
  if (!m) return null;
  const params = new URLSearchParams({ probe: m[1]!, preset: m[2]! });
  return `/runs/new?${params.toString()}`;
}
