import { z } from "zod";
import { metricAllowed, type MetricVocabulary } from "./metrics";
import type { NormalisedResult, Tool } from "./types";

import { MAX_DIM_CHARS, MAX_METRIC_CHARS } from "./limits";

// The plain values live in limits.ts, which the browser's live catalog loads without zod.
export { inTarget, isPowerOfTwo, MAX_DIM_CHARS, MAX_METRIC_CHARS, powersOfTwo } from "./limits";
const dimValue = z.union([z.string().max(MAX_DIM_CHARS), z.number()]);

export const measurementSchema = z.object({
  metric: z.string().min(1).max(MAX_METRIC_CHARS),
  // z.number() already rejects NaN and ±Infinity in zod 4: JSON could not store them anyway.
  value: z.number(),
  unit: z.string().max(32),
  dims: z.record(z.string().max(64), dimValue),
});

/**
 * Validates results that are stored or imported: the metric vocabulary per tool is checked so
 * that a hand-edited import cannot smuggle in names the dashboards do not know. The vocabularies
 * come from the probes (this folder cannot import the catalog, which imports it).
 */
export function normalisedResultSchemaFor(toolSchema: z.ZodType<Tool>, vocabularies: Readonly<Record<Tool, MetricVocabulary>>) {
  return z
  .object({
    tool: toolSchema,
    toolVersion: z.string().max(64).nullable(),
    measurements: z.array(measurementSchema).max(500_000),
    warnings: z.array(z.string().max(2000)).max(1000),
    format: z.string().max(64).optional(),
  })
  .superRefine((result, ctx) => {
    result.measurements.forEach((m, i) => {
      if (!metricAllowed(vocabularies[result.tool], m.metric)) {
        ctx.addIssue({
          code: "custom",
          path: ["measurements", i, "metric"],
          message: `"${m.metric}" is not a ${result.tool} metric`,
        });
      }
    });
  }) satisfies z.ZodType<NormalisedResult>;
}

/**
 * The directory a probe works in. It reaches argv (an output file or directory option),
 * so it must be an absolute path without NUL/control characters or ".." segments: a preset can
 * then never escape the directory the operator chose.
 */
export const targetSchema = z
  .string({ error: "target must be a string" })
  .min(1, "target is required")
  .max(4096, "target must be at most 4096 characters")
  .refine((s) => s.startsWith("/"), "target must be an absolute path (start with /)")
  .refine((s) => !s.includes("\0"), "target must not contain NUL bytes")
  // eslint-disable-next-line no-control-regex
  .refine((s) => !/[\x01-\x1f\x7f]/.test(s), "target must not contain control characters")
  .refine((s) => !s.split("/").includes(".."), "target must not contain '..' segments")
  // No shell ever sees a target, but a path full of `$(`, backticks or `;` is an attack more
  // often than a directory: allow what real mount points and scratch dirs use.
  .refine(
    (s) => /^[\p{L}\p{N}/ ._+@,=:-]*$/u.test(s),
    "target may contain letters, digits, spaces and / . _ - + @ , = : only",
  );
