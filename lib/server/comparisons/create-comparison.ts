import crypto from "node:crypto";
import { Prisma } from "@prisma/client";
import { z } from "zod";
import { db } from "../../db";
import { AppError } from "../../http/app-error";
import { loadCompareRuns } from "./load-runs";
import { createComparisonSchema, shareIncludeSchema } from "../../api/schemas/comparisons";
import { redactShare } from "./redact-share";
import { makeSnapshot, type ExperimentSnapshot } from "./snapshot";

/** 24 random bytes as base64url: 32 characters, 192 bits, unguessable. */
export function newSlug(): string {
  return crypto.randomBytes(24).toString("base64url");
}

export const SLUG_RE = /^[A-Za-z0-9_-]{32}$/;

/**
 * Freezes a comparison: the runs' labels, probe, parameters, profiles and results go into the
 * snapshot (self-contained: deleting a run later leaves it intact); the link rows record which
 * runs it came from while they exist.
 */
export async function createComparison(
  input: z.input<typeof createComparisonSchema>,
  createdById: string | null,
  extra: { experiment?: ExperimentSnapshot } = {},
): Promise<{ slug: string; id: string }> {
  const include = shareIncludeSchema.parse(input.include);
  const ids = [...new Set(input.runIds.map((id) => id.toLowerCase()))];
  const { runs, missing } = await loadCompareRuns(ids);
  if (missing.length > 0) {
    throw new AppError("NOT_FOUND", `No run${missing.length > 1 ? "s" : ""} with id ${missing.join(", ")}.`, { runIds: missing.map((id) => `No run ${id}.`) });
  }
  const unfinished = runs.filter((r) => !r.result);
  if (unfinished.length > 0) {
    const list = unfinished.map((r) => `${r.label} (${r.status.toLowerCase()})`).join("; ");
    throw new AppError("BAD_REQUEST", `Only runs with a result can be shared; these have none: ${list}.`, {
      runIds: unfinished.map((r) => `${r.id} has no result (${r.status.toLowerCase()}).`),
    });
  }
  // The experiment's verdict goes through the same redaction as the runs (its arms are often
  // named after their directories), and so does its title, which by default names the arms; a
  // comparison's title is the sharer's own, typed in the share form.
  const shared = redactShare({ runs, include, experiment: extra.experiment });
  const snapshot = makeSnapshot(shared.runs, shared.experiment);
  const title = extra.experiment ? shared.text(input.title) : input.title;
  const expiresAt = input.expiresInDays ? new Date(Date.now() + input.expiresInDays * 24 * 60 * 60 * 1000) : null;
  for (let attempt = 0; ; attempt++) {
    const slug = newSlug();
    try {
      const row = await db().comparison.create({
        data: {
          slug,
          expiresAt,
          title,
          snapshot: snapshot as unknown as Prisma.InputJsonValue,
          createdById,
          runs: { create: runs.map((r, position) => ({ runId: r.id, position })) },
        },
        select: { id: true },
      });
      return { slug, id: row.id };
    } catch (err) {
      // A slug collision at 192 bits means a broken random source more than bad luck; retry once.
      if (attempt === 0 && err instanceof Prisma.PrismaClientKnownRequestError && err.code === "P2002") continue;
      throw err;
    }
  }
}
