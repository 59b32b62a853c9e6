import { z } from "zod";
import type { NormalisedResult } from "./types";

export const toolSchema = z.enum(["iozone", "dd", "sar", "fio", "fsmeta"]);

// Dimension values are short labels (device, CPU, job, time); 256 characters is generous.
export const MAX_DIM_CHARS = 256;
export const MAX_METRIC_CHARS = 128;
const dimValue = z.union([z.string().max(MAX_DIM_CHARS), z.number()]);

export const measurementSchema = z.object({
  metric: z.string().min(1).max(MAX_METRIC_CHARS),
  // z.number() already rejects NaN and ±Infinity in zod 4: JSON could not store them anyway.
  value: z.number(),
  unit: z.string().max(32),
  dims: z.record(z.string().max(64), dimValue),
});

const IOZONE_METRICS = new Set([
  "write", "rewrite", "read", "reread", "random_read", "random_write", "backward_read",
  "record_rewrite", "stride_read", "fwrite", "frewrite", "fread", "freread",
]);
const DD_METRICS = new Set(["bytes", "seconds", "throughput"]);
const FIO_METRICS = new Set(["bw", "iops", "lat_mean", "clat_p99"]);
const FSMETA_METRICS = new Set(["rate", "lat_mean", "lat_p99"]);

function metricAllowed(tool: z.infer<typeof toolSchema>, metric: string): boolean {
  switch (tool) {
    case "iozone":
      return IOZONE_METRICS.has(metric) || /^throughput_[a-z0-9_]+$/.test(metric);
    case "dd":
      return DD_METRICS.has(metric);
    case "fio":
      return FIO_METRICS.has(metric);
    case "fsmeta":
      return FSMETA_METRICS.has(metric);
    case "sar":
      // sar column names are open-ended (sysstat adds columns between releases).
      return true;
  }
}

/**
 * Validates results that are stored or imported: the metric vocabulary per tool is checked so
 * that a hand-edited import cannot smuggle in names the dashboards do not know.
 */
export const normalisedResultSchema = z
  .object({
    tool: toolSchema,
    toolVersion: z.string().max(64).nullable(),
    measurements: z.array(measurementSchema).max(500_000),
    warnings: z.array(z.string().max(2000)).max(1000),
  })
  .superRefine((result, ctx) => {
    result.measurements.forEach((m, i) => {
      if (!metricAllowed(result.tool, m.metric)) {
        ctx.addIssue({
          code: "custom",
          path: ["measurements", i, "metric"],
          message: `"${m.metric}" is not a ${result.tool} metric`,
        });
      }
    });
  }) satisfies z.ZodType<NormalisedResult>;

export const parseOutcomeSchema = z.discriminatedUnion("ok", [
  z.object({ ok: z.literal(true), result: normalisedResultSchema }),
  z.object({ ok: z.literal(false), error: z.string() }),
]);

/**
 * The directory a probe works in. It reaches argv (dd of=..., iozone -f ..., fio --directory=...),
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

/** Joins a validated target directory and a fixed file name. */
export function inTarget(target: string, name: string): string {
  return target.endsWith("/") ? `${target}${name}` : `${target}/${name}`;
}

export function isPowerOfTwo(n: number): boolean {
  return Number.isInteger(n) && n > 0 && (n & (n - 1)) === 0;
}

/** Powers of two between min and max (inclusive), e.g. record sizes 4..16384 KiB. */
export function powersOfTwo(min: number, max: number): number[] {
  const out: number[] = [];
  for (let n = 1; n <= max; n *= 2) if (n >= min) out.push(n);
  return out;
}
