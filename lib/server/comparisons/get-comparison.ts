import type { CompareRun } from "../../compare/types";
import { db } from "../../db";
import { AppError } from "../../http/app-error";
import { SLUG_RE } from "./create-comparison";
import { publicRun, snapshotSchema, type ExperimentSnapshot } from "./snapshot";

export interface SharedComparison {
  slug: string;
  title: string;
  createdAt: string;
  runs: CompareRun[];
  /** Set when the share froze an experiment: its verdict as it was. */
  experiment?: ExperimentSnapshot;
}

/** A shared comparison by its slug, read from its snapshot only; unknown slugs are NOT_FOUND. */
export async function getComparison(slug: string): Promise<SharedComparison> {
  const notFound = () => new AppError("NOT_FOUND", "No shared comparison at this address.");
  if (!SLUG_RE.test(slug)) throw notFound();
  const row = await db().comparison.findUnique({ where: { slug }, select: { slug: true, title: true, createdAt: true, snapshot: true, revokedAt: true, expiresAt: true } });
  if (!row) throw notFound();
  // Gone, not missing: the link was real, and whoever holds it should learn it will not return.
  if (row.revokedAt) throw new AppError("GONE", "This shared comparison was withdrawn by the person who shared it.");
  if (row.expiresAt && row.expiresAt <= new Date()) throw new AppError("GONE", "This shared comparison has expired.");
  const snap = snapshotSchema.safeParse(row.snapshot);
  if (!snap.success) throw new Error(`comparison ${slug}: snapshot does not match version 1: ${snap.error.message.slice(0, 300)}`);
  return { slug: row.slug, title: row.title, createdAt: row.createdAt.toISOString(), runs: snap.data.runs, ...(snap.data.experiment ? { experiment: snap.data.experiment } : {}) };
}

/** The public JSON of a comparison (shared or previewed). */
export function comparisonJson(c: { title: string; createdAt: string; runs: readonly CompareRun[]; experiment?: ExperimentSnapshot }) {
  return { title: c.title, createdAt: c.createdAt, runs: c.runs.map(publicRun), ...(c.experiment ? { experiment: c.experiment } : {}) };
}
