/**
 * Schemas for the knowledge-base content in `content/`:
 *  - guide frontmatter (`content/guides/<slug>.mdx`)
 *  - datasets (`content/data/<id>.json`)
 *
 * Preset ids are only checked for their "probe:preset" shape here; the app
 * validates them against the probe catalog.
 */
import { z } from "zod";

/** kebab-case identifier used for guide slugs and dataset ids. */
export const SLUG_PATTERN = /^[a-z0-9]+(?:-[a-z0-9]+)*$/;
/** "probe:preset", e.g. "iozone:ext-article". */
export const PRESET_ID_PATTERN = /^[a-z][a-z0-9]*:[a-z0-9]+(?:-[a-z0-9]+)*$/;
/** Column keys are plain identifiers so they can be used as object keys and chart accessors. */
export const COLUMN_KEY_PATTERN = /^[a-z][a-z0-9_]*$/;

export const slugSchema = z.string().regex(SLUG_PATTERN, "must be kebab-case (a-z, 0-9, -)");
export const datasetIdSchema = slugSchema;
export const presetIdSchema = z
  .string()
  .regex(PRESET_ID_PATTERN, 'must look like "probe:preset", e.g. "iozone:ext-article"');

/** A year as the source capture gives it: a number, or a string such as "undated (c. 2006)". */
export const sourceYearSchema = z.union([z.number().int().min(1970).max(2100), z.string().min(1)]);

export const sourceSchema = z.strictObject({
  title: z.string().min(1),
  /** The title in English, for sources written in another language; shown beside the original. */
  titleEnglish: z.string().min(1).optional(),
  /** Author, or the site when the capture names no author. */
  author: z.string().min(1),
  site: z.string().min(1).optional(),
  year: sourceYearSchema,
  language: z.enum(["zh", "en"]).optional(),
  url: z.string().min(1).optional(),
  note: z.string().min(1).optional(),
});

export const tunableKindSchema = z.enum(["sysctl", "mount-option", "command", "config"]);

export const tunableSchema = z.strictObject({
  name: z.string().min(1),
  kind: tunableKindSchema,
  recommended: z.string().min(1),
  why: z.string().min(1),
});

export const guideFrontmatterSchema = z.strictObject({
  title: z.string().min(1),
  summary: z
    .string()
    .min(1)
    .refine((s) => !/[\r\n]/.test(s), "summary must be one line"),
  source: sourceSchema,
  tags: z.array(z.string().regex(SLUG_PATTERN, "tags are kebab-case")).min(1),
  tunables: z.array(tunableSchema),
  presets: z.array(presetIdSchema),
  datasets: z.array(datasetIdSchema),
  related: z.array(slugSchema),
  order: z.number().int().nonnegative(),
});

export type GuideFrontmatter = z.infer<typeof guideFrontmatterSchema>;
export type GuideSource = z.infer<typeof sourceSchema>;
export type Tunable = z.infer<typeof tunableSchema>;

// ---------------------------------------------------------------------------
// Datasets

export const cellSchema = z.union([z.string(), z.number(), z.boolean(), z.null()]);
export type Cell = z.infer<typeof cellSchema>;

export const columnSchema = z.strictObject({
  key: z.string().regex(COLUMN_KEY_PATTERN, "column keys are snake_case identifiers"),
  label: z.string().min(1),
  unit: z.string().min(1).optional(),
  description: z.string().min(1).optional(),
});

export const annotationSchema = z.strictObject({
  /** The facet panel it belongs to; every panel when absent. */
  facet: z.string().min(1).optional(),
  /** x values as published (e.g. record sizes 32 and 64); `to` defaults to `from`. */
  from: z.union([z.number(), z.string()]),
  to: z.union([z.number(), z.string()]).optional(),
  label: z.string().min(1),
});

export const chartSchema = z.strictObject({
  type: z.enum(["line", "bar"]),
  x: z.string().min(1),
  y: z.string().min(1),
  series: z.string().min(1).optional(),
  facet: z.string().min(1).optional(),
  xScale: z.enum(["log2", "linear", "category"]).optional(),
  yLabel: z.string().min(1).optional(),
  xLabel: z.string().min(1).optional(),
  /** "log10" when the values span orders of magnitude (disk vs memory) and a linear axis would flatten the small ones. */
  yScale: z.enum(["linear", "log10"]).optional(),
  /** A column holding each row's unit, for datasets that mix units: each facet panel labels its axis with its rows' unit. */
  unitColumn: z.string().min(1).optional(),
  /** Shaded x ranges with a label, e.g. the anomalies a guide's caveats cite. */
  annotations: z.array(annotationSchema).optional(),
});

/** Lays a table out as a grid: one row per `row` value (and `group` value beneath it), one column per `column` value. */
export const pivotSchema = z.strictObject({
  row: z.string().min(1),
  column: z.string().min(1),
  group: z.string().min(1).optional(),
  value: z.string().min(1),
});

/** Marks a dataset whose rows are probe-style results the app can import as REFERENCE runs. */
export const referenceSchema = z.strictObject({
  probe: z.string().regex(/^[a-z][a-z0-9]*$/, "probe name, e.g. iozone"),
  /** The probe preset that re-runs the same test, when one exists. */
  preset: presetIdSchema.optional(),
  /** Test file size in KiB, only when the source states it exactly. */
  fileKiB: z.number().int().positive().optional(),
  /** Block / record size in KiB, when the whole dataset uses one. */
  blockKiB: z.number().positive().optional(),
  host: z.string().min(1),
  year: sourceYearSchema,
  /** The medium of every series, when the table has no medium column. */
  medium: z.enum(["memory", "ssd", "disk"]).optional(),
  /** The preset that re-runs the rows whose operation is a write, when it differs from `preset`. */
  writePreset: presetIdSchema.optional(),
  /** When true, every value of `chart.series` becomes one reference run. */
  seriesToRuns: z.boolean().optional(),
});

const datasetObjectSchema = z.strictObject({
  id: datasetIdSchema,
  title: z.string().min(1),
  guide: slugSchema,
  source: z.string().min(1),
  units: z.record(z.string(), z.string().min(1)),
  note: z.string().min(1).optional(),
  columns: z.array(columnSchema).min(1),
  rows: z.array(z.record(z.string(), cellSchema)).min(1),
  chart: chartSchema,
  /** Show the table as a pivot grid instead of one row per cell. */
  pivot: pivotSchema.optional(),
  reference: referenceSchema.optional(),
});

export const datasetSchema = datasetObjectSchema.superRefine((ds, ctx) => {
  const keys = ds.columns.map((c) => c.key);
  const keySet = new Set(keys);
  if (keySet.size !== keys.length) {
    ctx.addIssue({ code: "custom", path: ["columns"], message: "column keys must be unique" });
  }

  ds.rows.forEach((row, i) => {
    for (const k of Object.keys(row)) {
      if (!keySet.has(k)) {
        ctx.addIssue({ code: "custom", path: ["rows", i, k], message: `"${k}" is not a declared column` });
      }
    }
    for (const k of keys) {
      if (!(k in row)) {
        ctx.addIssue({ code: "custom", path: ["rows", i], message: `missing column "${k}" (use null for no value)` });
      }
    }
  });

  for (const k of Object.keys(ds.units)) {
    if (!keySet.has(k)) {
      ctx.addIssue({ code: "custom", path: ["units", k], message: `units refers to unknown column "${k}"` });
    }
  }

  const chartRefs = (["x", "y", "series", "facet"] as const).filter((f) => ds.chart[f] !== undefined);
  for (const f of chartRefs) {
    const key = ds.chart[f] as string;
    if (!keySet.has(key)) {
      ctx.addIssue({ code: "custom", path: ["chart", f], message: `chart.${f} refers to unknown column "${key}"` });
    }
  }

  // y must be numeric (or null = no value) in every row, and numeric somewhere.
  let numericY = 0;
  ds.rows.forEach((row, i) => {
    const v = row[ds.chart.y];
    if (typeof v === "number") numericY++;
    else if (v !== null && v !== undefined) {
      ctx.addIssue({ code: "custom", path: ["rows", i, ds.chart.y], message: "chart.y values must be numbers or null" });
    }
  });
  if (numericY === 0) {
    ctx.addIssue({ code: "custom", path: ["chart", "y"], message: "chart.y column has no numeric value" });
  }

  if (ds.chart.xScale === "log2" || ds.chart.xScale === "linear") {
    ds.rows.forEach((row, i) => {
      const v = row[ds.chart.x];
      const ok = typeof v === "number" && (ds.chart.xScale === "linear" || v > 0);
      if (!ok) {
        ctx.addIssue({
          code: "custom",
          path: ["rows", i, ds.chart.x],
          message: `chart.xScale "${ds.chart.xScale}" needs ${ds.chart.xScale === "log2" ? "positive " : ""}numeric x values`,
        });
      }
    });
  }

  if (ds.chart.unitColumn !== undefined && !keySet.has(ds.chart.unitColumn)) {
    ctx.addIssue({ code: "custom", path: ["chart", "unitColumn"], message: `chart.unitColumn refers to unknown column "${ds.chart.unitColumn}"` });
  }

  if (ds.chart.yScale === "log10") {
    ds.rows.forEach((row, i) => {
      const v = row[ds.chart.y];
      if (typeof v === "number" && !(v > 0)) {
        ctx.addIssue({ code: "custom", path: ["rows", i, ds.chart.y], message: 'chart.yScale "log10" needs positive y values (use null for no value)' });
      }
    });
  }

  const facetValues = new Set(ds.chart.facet ? ds.rows.map((r) => String(r[ds.chart.facet!] ?? "")) : []);
  const xValues = new Set(ds.rows.map((r) => String(r[ds.chart.x] ?? "")));
  (ds.chart.annotations ?? []).forEach((a, i) => {
    if (a.facet !== undefined && !facetValues.has(a.facet)) {
      ctx.addIssue({ code: "custom", path: ["chart", "annotations", i, "facet"], message: `no facet "${a.facet}" in this dataset` });
    }
    for (const end of [a.from, a.to ?? a.from]) {
      if (!xValues.has(String(end))) {
        ctx.addIssue({ code: "custom", path: ["chart", "annotations", i], message: `x value "${end}" does not occur in the dataset` });
      }
    }
  });

  if (ds.pivot) {
    for (const f of ["row", "column", "group", "value"] as const) {
      const key = ds.pivot[f];
      if (key !== undefined && !keySet.has(key)) {
        ctx.addIssue({ code: "custom", path: ["pivot", f], message: `pivot.${f} refers to unknown column "${key}"` });
      }
    }
  }

  if (ds.reference?.seriesToRuns && !ds.chart.series) {
    ctx.addIssue({ code: "custom", path: ["reference", "seriesToRuns"], message: "seriesToRuns needs chart.series" });
  }
});

export type Dataset = z.infer<typeof datasetSchema>;
export type DatasetColumn = z.infer<typeof columnSchema>;
export type DatasetChartSpec = z.infer<typeof chartSchema>;
export type DatasetReference = z.infer<typeof referenceSchema>;
export type DatasetAnnotation = z.infer<typeof annotationSchema>;
export type DatasetPivot = z.infer<typeof pivotSchema>;

/** Formats zod issues as "path: message" lines for error messages. */
export function formatIssues(error: z.ZodError): string {
  return error.issues
    .map((issue) => {
      const where = issue.path.length ? issue.path.map(String).join(".") : "(root)";
      return `  - ${where}: ${issue.message}`;
    })
    .join("\n");
}
