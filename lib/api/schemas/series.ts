// The answers of /api/series and /api/alerts: runs of one host, probe and parameters over time,
// their headline figure, the host-profile changes between runs, and the regression alerts.
import { z } from "zod";
import { uuidSchema } from "../../http/params";

/** One field of the host profile that differs: "kernel" 6.1.0-25-amd64 → 6.1.0-28-amd64. */
export const profileChangeSchema = z
  .object({
    field: z.string().describe("Stable key, e.g. kernel, mount.options, sysctl.vm.dirty_ratio, tool.version."),
    label: z.string().describe("In words, e.g. `vm.dirty_ratio`, kernel, mount options."),
    from: z.string().nullable(),
    to: z.string().nullable(),
  })
  .meta({ id: "ProfileChange" });

export type ProfileChange = z.infer<typeof profileChangeSchema>;

export const seriesPointSchema = z.object({
  runId: z.string().uuid(),
  at: z.string().describe("When the run finished."),
  status: z.string(),
  /** The followed headline figure in `unit`; null when the run has none (failed, not parsed). */
  value: z.number().nullable(),
  /** The run's own spread of that figure when it has one (repeats within the run), else null. */
  low: z.number().nullable(),
  high: z.number().nullable(),
  valid: z.boolean().describe("Succeeded with no flag from the run checks: only valid runs enter the windows."),
  flags: z.array(z.string()).describe("The titles of the run checks' flags."),
  notes: z.string().nullable(),
  scheduled: z.boolean(),
});

export const seriesAnnotationSchema = z.object({
  /** The first run with the new profile. */
  runId: z.string().uuid(),
  at: z.string(),
  changes: z.array(profileChangeSchema),
});

export const alertSchema = z
  .object({
    id: z.string().uuid(),
    seriesId: z.string().uuid(),
    seriesTitle: z.string(),
    hostId: z.string().uuid().nullable(),
    hostName: z.string().nullable(),
    kind: z.enum(["regression", "improvement"]),
    metricKey: z.string(),
    noun: z.string(),
    unit: z.string(),
    ratio: z.number(),
    ciLow: z.number(),
    ciHigh: z.number(),
    confidence: z.number(),
    baselineRunIds: z.array(z.string().uuid()),
    recentRunIds: z.array(z.string().uuid()),
    changes: z.array(profileChangeSchema),
    message: z.string(),
    createdAt: z.string(),
    acknowledgedAt: z.string().nullable(),
  })
  .meta({ id: "Alert" });

export const headlineChoiceSchema = z.object({ key: z.string(), noun: z.string(), unit: z.string(), betterWhen: z.enum(["higher", "lower"]) });

/** The two windows compared the way an experiment's verdict compares arms. */
export const windowVerdictSchema = z.object({
  baselineRunIds: z.array(z.string().uuid()),
  recentRunIds: z.array(z.string().uuid()),
  state: z.enum(["collecting", "decided", "no-difference-detected"]),
  ratio: z.number().nullable(),
  ciLow: z.number().nullable(),
  ciHigh: z.number().nullable(),
  confidence: z.number().nullable(),
  halfWidthPct: z.number().nullable(),
  sentence: z.string(),
  changes: z.array(profileChangeSchema),
});

export const seriesSummarySchema = z
  .object({
    id: z.string().uuid(),
    title: z.string().describe("Probe, preset or parameters in short, and target."),
    hostId: z.string().uuid().nullable(),
    hostName: z.string().nullable(),
    probe: z.string(),
    preset: z.string().nullable(),
    target: z.string().nullable(),
    metric: headlineChoiceSchema.nullable(),
    runs: z.number().int(),
    lastRunAt: z.string().nullable(),
    latest: z.number().nullable().describe("The last valid run's value, in metric.unit."),
    /** The last valid values, oldest first (a sparkline). */
    recent: z.array(z.number()),
    trend: z.enum(["regression", "improvement", "steady", "collecting"]),
    openAlerts: z.number().int(),
    windowRuns: z.number().int(),
    thresholdPct: z.number(),
  })
  .meta({ id: "SeriesSummary" });

export const seriesDetailSchema = seriesSummarySchema.extend({
  params: z.record(z.string(), z.unknown()),
  metrics: z.array(headlineChoiceSchema).describe("Every headline figure the series' runs have: any may be followed."),
  points: z.array(seriesPointSchema),
  annotations: z.array(seriesAnnotationSchema),
  alerts: z.array(alertSchema),
  /** The last N valid runs against the N before (null until there are 2N). */
  current: windowVerdictSchema.nullable(),
});

export const listSeriesQuerySchema = z.object({ hostId: uuidSchema("hostId must be a host id").optional() });

export const updateSeriesSchema = z
  .object({
    metricKey: z.string().min(1).max(300).nullable().optional(),
    windowRuns: z.number().int().min(3, "A window needs at least 3 runs (the fewest the interval can use).").max(50, "At most 50 runs per window.").optional(),
    thresholdPct: z.number().min(0.5, "The threshold is at least 0.5 %.").max(90, "The threshold is at most 90 %.").optional(),
  })
  .strict();
export type UpdateSeriesInput = z.infer<typeof updateSeriesSchema>;

/** An instant as ISO 8601 text (the document says so: a coerced date alone has no JSON type). */
const instant = (field: string, what: string) =>
  z.coerce.date({ error: `${field} must be a date (ISO 8601, e.g. 2026-11-01T00:00:00Z).` }).meta({ type: "string", format: "date-time", description: what });

/** Compare two windows: a finish-time range (ISO dates) for each; a is the baseline. */
export const compareWindowsSchema = z
  .object({
    a: z.object({ from: instant("a.from", "The first finish time of window a."), to: instant("a.to", "The last finish time of window a.") }),
    b: z.object({ from: instant("b.from", "The first finish time of window b."), to: instant("b.to", "The last finish time of window b.") }),
  })
  .strict();

export const listAlertsQuerySchema = z.object({
  state: z.enum(["open", "acknowledged", "all"]).default("open"),
  kind: z.enum(["regression", "improvement", "all"]).default("all"),
  hostId: uuidSchema("hostId must be a host id").optional(),
  limit: z.coerce.number().int().min(1, "limit is at least 1.").max(500, "limit is at most 500.").default(100),
});

export type SeriesPoint = z.infer<typeof seriesPointSchema>;
export type SeriesAnnotation = z.infer<typeof seriesAnnotationSchema>;
export type SeriesSummary = z.infer<typeof seriesSummarySchema>;
export type SeriesDetail = z.infer<typeof seriesDetailSchema>;
export type AlertView = z.infer<typeof alertSchema>;
export type WindowVerdict = z.infer<typeof windowVerdictSchema>;
export type HeadlineChoice = z.infer<typeof headlineChoiceSchema>;
export type CompareWindowsInput = z.infer<typeof compareWindowsSchema>;
export type ListAlertsQuery = z.infer<typeof listAlertsQuerySchema>;
