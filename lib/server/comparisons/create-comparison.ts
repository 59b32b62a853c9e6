import crypto from "node:crypto";
import { Prisma } from "@prisma/client";
import { z } from "zod";
import { isUuid, MAX_COMPARE_RUNS } from "../../compare/run-ids";
import { db } from "../../db";
import { AppError } from "../../http/app-error";
import { loadCompareRuns } from "./load-runs";
import { redactForShare, shareIncludeSchema } from "./redact-share";
import { makeSnapshot, type ExperimentSnapshot } from "./snapshot";

export const createComparisonSchema = z.object({
  runIds: z
    .array(z.string().refine(isUuid, { message: "Each run id must be a UUID." }), { error: "runIds must be a list of run ids." })
    .min(1, "Choose at least one run.")
    .max(MAX_COMPARE_RUNS, `A comparison holds at most ${MAX_COMPARE_RUNS} runs.`),
  title: z
    .string({ error: "Give the comparison a title." })
    .trim()
    .min(1, "Give the comparison a title.")
    .max(200, "The title is at most 200 characters."),
  /** Which host details the public snapshot keeps (default: no host names, no paths). */
  include: shareIncludeSchema,
  /** Optional lifetime of the link in whole days; absent: until revoked. */
  expiresInDays: z.number().int("Whole days only.").min(1, "At least 1 day.").max(3650, "At most 3650 days.").optional(),
});
export type CreateComparisonInput = z.infer<typeof createComparisonSchema>;

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
  const snapshot = makeSnapshot(redactForShare(runs, include), extra.experiment);
  const expiresAt = input.expiresInDays ? new Date(Date.now() + input.expiresInDays * 24 * 60 * 60 * 1000) : null;
  for (let attempt = 0; ; attempt++) {
    const slug = newSlug();
    try {
      const row = await db().comparison.create({
        data: {
          slug,
          expiresAt,
          title: input.title,
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
