// Which series a run belongs to: the same host, probe and parameters (the target is one of the
// parameters), after validation filled in the defaults, so a preset and the same values typed by
// hand are one series. Key order does not matter; the key is a SHA-256 of the canonical JSON.
import crypto from "node:crypto";

function canonical(value: unknown): unknown {
  if (Array.isArray(value)) return value.map(canonical);
  if (value && typeof value === "object") {
    return Object.fromEntries(
      Object.keys(value as Record<string, unknown>)
        .sort()
        .map((k) => [k, canonical((value as Record<string, unknown>)[k])]),
    );
  }
  return value;
}

export function seriesKey(s: { hostId: string; probe: string; params: unknown }): string {
  return crypto.createHash("sha256").update(JSON.stringify(canonical({ hostId: s.hostId, probe: s.probe, params: s.params }))).digest("hex");
}

/** The directory a series measures, when its probe has one. */
export function seriesTarget(params: unknown): string | null {
  const t = params && typeof params === "object" ? (params as { target?: unknown }).target : undefined;
  return typeof t === "string" ? t : null;
}
