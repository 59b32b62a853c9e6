import { cache } from "react";
import { db } from "../../db";
import { AppError } from "../../http/app-error";
import { SLUG_RE } from "./create-comparison";
import { getComparison, type SharedComparison } from "./get-comparison";

/**
 * A shared comparison for the /c/<slug> page, its metadata and its preview image, read once per
 * request; null when there is none at that slug.
 */
export const sharedComparison = cache(async (slug: string): Promise<SharedComparison | null> => {
  try {
    return await getComparison(slug);
  } catch (err) {
    if (err instanceof AppError && (err.code === "NOT_FOUND" || err.code === "GONE")) return null;
    throw err;
  }
});

/** "<probe> comparison of 4 runs: a; b; c; +1 more" — for og:description and the page's description. */
export function describeShared(c: SharedComparison): string {
  const probes = [...new Set(c.runs.map((r) => r.probe))].join(" + ");
  const labels = c.runs.slice(0, 4).map((r) => r.label);
  const more = c.runs.length > 4 ? `; +${c.runs.length - 4} more` : "";
  return `${probes} comparison of ${c.runs.length} run${c.runs.length === 1 ? "" : "s"}: ${labels.join("; ")}${more}`.slice(0, 300);
}

/** Why a share link that once worked no longer shows anything: withdrawn (when) or expired (when). */
export interface GoneShare {
  reason: "withdrawn" | "expired";
  at: Date;
}

/**
 * For the /c/<slug> page when sharedComparison found nothing: a withdrawn or expired link says
 * so (the JSON and CSV answer 410 with the same facts); null when there never was one.
 */
export const goneShare = cache(async (slug: string): Promise<GoneShare | null> => {
  if (!SLUG_RE.test(slug)) return null;
  const row = await db().comparison.findUnique({ where: { slug }, select: { revokedAt: true, expiresAt: true } });
  if (row?.revokedAt) return { reason: "withdrawn", at: row.revokedAt };
  if (row?.expiresAt && row.expiresAt <= new Date()) return { reason: "expired", at: row.expiresAt };
  return null;
});

/**
 * The request's gone share, handed from the page to its not-found.tsx (which gets no params and
 * may render before the page has looked): the page settles it on every path, the not-found waits
 * for it. The page stays a 404 for a link that no longer works, and says why.
 */
export const requestGoneShare = cache(() => {
  let settle: (gone: GoneShare | null) => void = () => {};
  const gone = new Promise<GoneShare | null>((resolve) => (settle = resolve));
  return { gone, settle };
});
