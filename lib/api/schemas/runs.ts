// The bodies, queries and answers of /api/runs: the use cases in lib/server/runs take their types
// from here, and lib/api/runs.ts declares the operations with them.
import { z } from "zod";
import { isProbeId, probeChoices, TOOL_IDS } from "../../../probes/catalog";
import { telemetrySampleSchema } from "../../../probes/protocol/schemas";
import { uuidSchema } from "../../http/params";
import { RUN_ORIGINS, RUN_STATUSES } from "../../run-status";
import { tagSchema } from "./tags";
import { EMPTY_IMPORT_FILE, importTooLarge, MAX_IMPORT_BYTES, MAX_IMPORT_WORDS, utf8Length } from "../../../probes/core/limits";

export const createRunSchema = z.object({
  hostId: uuidSchema("Pick a registered host."),
  probe: z.string().min(1).max(50),
  /** One of the probe's presets (e.g. "write-direct"); `params` override its values (the target at least). */
  preset: z.string().min(1).max(100).optional(),
  params: z.record(z.string(), z.unknown()).meta({
    description:
      "The probe's parameters (see the probe's schema in the catalogue), over the preset's values when one is given. `target` — the directory to measure in, inside one of the agent's --allow directories — goes here, not at the top level.",
    properties: { target: { type: "string", description: "Directory the probe writes in, e.g. /srv/probebook." } },
    required: ["target"],
  }),
  repeats: z
    .number({ error: "Repeats must be a whole number from 1 to 20." })
    .int("Repeats must be a whole number from 1 to 20.")
    .min(1, "Repeats must be between 1 and 20.")
    .max(20, "Repeats must be between 1 and 20.")
    .default(1),
}).meta({
  examples: [{ hostId: "7d1c2b9e-4f3a-4c1d-9a5e-2b8f6c0d1e3a", probe: "fio", preset: "rand-read-4k", params: { target: "/srv/probebook" }, repeats: 1 }],
});
export type CreateRunInput = z.infer<typeof createRunSchema>;


/** How a paste holding several runs is imported: a run each, or one run whose measurements carry `run`. */
export const IMPORT_RUNS_CHOICES = ["separate", "series"] as const;
export type ImportRunsChoice = (typeof IMPORT_RUNS_CHOICES)[number];

const noNul = (s: string) => !s.includes("\u0000");

export const importRunSchema = z.object({
  probe: z.string().refine(isProbeId, { message: `Choose ${probeChoices()}.` }),
  output: z
    .string()
    .min(1, "Paste or upload the tool's output.")
    // UTF-8 bytes are never fewer than UTF-16 units, so this bound holds (and documents maxLength);
    // the bytes themselves are counted below, the same way as a file's size.
    .max(MAX_IMPORT_BYTES, importTooLarge("output"))
    .superRefine((s, ctx) => {
      if (s.length <= MAX_IMPORT_BYTES && utf8Length(s) > MAX_IMPORT_BYTES) ctx.addIssue({ code: "too_big", origin: "string", maximum: MAX_IMPORT_BYTES, inclusive: true, message: importTooLarge("output") });
    })
    .describe(`The tool's output as text: at most ${MAX_IMPORT_WORDS} of UTF-8 (an accented letter counts 2 bytes). Larger files are better sent to POST /api/runs/import/file.`),
  hostLabel: z.string().trim().min(1, "Say which machine this output came from.").max(200).refine(noNul, "The machine name must not contain NUL characters."),
  notes: z.string().trim().max(5000).refine(noNul, "Notes must not contain NUL characters.").optional(),
  runs: z
    .enum(IMPORT_RUNS_CHOICES, { error: 'Choose "separate" (one run per run in the paste) or "series" (one run whose measurements carry run: 1, 2, …).' })
    .optional()
    .describe(
      'When the output holds several runs (a shell session with two dd runs, several fio reports): "separate" stores each as a run of its own, with its command line as its note; "series" stores one run whose measurements carry run: 1, 2, … and the command. Required then; ignored for one run.',
    ),
});
export type ImportRunInput = z.infer<typeof importRunSchema>;

const importFile = z
  .file({ error: "Choose a file with the tool's output (the form field `file`)." })
  .min(1, EMPTY_IMPORT_FILE)
  .max(MAX_IMPORT_BYTES, importTooLarge("file"))
  .describe(`The tool's output as a file, read as UTF-8: at most ${MAX_IMPORT_WORDS}.`);

/** The import with the output as an uploaded file (multipart/form-data): what the form sends for large files. */
export const importFileSchema = importRunSchema.omit({ output: true }).extend({ file: importFile });
export type ImportFileInput = z.infer<typeof importFileSchema>;

/** The preview of an uploaded file. */
export const importFilePreviewSchema = z.object({ probe: importRunSchema.shape.probe, file: importFile });

/** What the import form asks before importing: which form was read, and how many runs the paste holds. */
export const importPreviewSchema = importRunSchema.pick({ probe: true, output: true });
export type ImportPreviewInput = z.infer<typeof importPreviewSchema>;

export const importPreviewJsonSchema = z.object({
  format: z.string().nullable().describe("Which of the tool's output forms was read."),
  measurements: z.number().int(),
  runs: z
    .array(
      z.object({
        run: z.number().int(),
        command: z.string().nullable().describe("The run's command line, when the paste shows it."),
        realSeconds: z.number().nullable().describe("`time`'s wall-clock seconds for the run, when the paste shows them."),
      }),
    )
    .describe("One entry per run found in the output; one entry for a single run."),
  summary: z.string().describe('In words: "2 dd runs found", "1 fio run found".'),
});

// PostgreSQL timestamps and text hold neither JavaScript's extreme dates nor NUL characters:
// such filters are a 400 here, not a database error.
// Coerced from the query string, which zod's JSON Schema cannot show (it would print {}): the meta
// says what a client sends.
const filterDate = (bound: "from" | "to") => z.coerce
  .date()
  .refine((d) => d.getUTCFullYear() >= 1900 && d.getUTCFullYear() <= 9999, "Use a date between the years 1900 and 9999.")
  .meta({
    type: "string",
    anyOf: [{ format: "date" }, { format: "date-time" }],
    description: `Runs created ${bound === "from" ? "at or after" : "at or before"} this instant: ISO 8601 (2026-11-01T12:00:00Z), or a day (2026-11-01), which means its midnight UTC.`,
    examples: ["2026-11-01", "2026-11-01T12:00:00Z"],
  });

export const listRunsQuerySchema = z.object({
  hostId: uuidSchema().optional(),
  /** Case-insensitive part of a registered host's name or of an imported/reference run's host label. */
  host: z.string().trim().min(1).max(200).refine(noNul, "The host filter must not contain NUL characters.").optional(),
  probe: z.enum(TOOL_IDS).optional(),
  status: z.enum(RUN_STATUSES).optional(),
  origin: z.enum(RUN_ORIGINS).optional(),
  fsType: z.string().max(30).refine(noNul, "The file system filter must not contain NUL characters.").optional(),
  medium: z.enum(["memory", "ssd", "disk", "unknown"]).optional(),
  /** Runs carrying this tag. */
  tag: tagSchema.optional(),
  from: filterDate("from").optional(),
  to: filterDate("to").optional(),
  sort: z.enum(["createdAt", "probe", "status", "host"]).default("createdAt"),
  order: z.enum(["asc", "desc"]).default("desc"),
  page: z.coerce.number().int().min(1).max(100_000).default(1),
  pageSize: z.coerce.number().int().min(1).max(200).default(50),
});
export type ListRunsQuery = z.infer<typeof listRunsQuerySchema>;

/** One check a run failed against its own telemetry (probes/checks/types.ts RunCheck). */
export const runCheckSchema = z
  .object({
    code: z.string().describe("too-short, too-few-samples, write-not-on-device, cache-served-read, device-busy-elsewhere, cpu-busy-elsewhere"),
    title: z.string(),
    evidence: z.string().describe("The figures that decided it."),
    guide: z.object({ slug: z.string(), section: z.string(), href: z.string() }).nullable(),
  })
  .meta({ id: "RunCheck" });

/** A run as the API answers it: GET /api/runs/{id}, each row of GET /api/runs, the JSON export. */
export const runJsonSchema = z
  .object({
    id: z.string().uuid(),
    hostId: z.string().uuid().nullable(),
    hostName: z.string().nullable(),
    hostRemoved: z.boolean().describe("Launched on a host that has since been deleted; hostName is the name it had."),
    probe: z.string(),
    params: z.unknown(),
    status: z.enum(RUN_STATUSES),
    origin: z.enum(RUN_ORIGINS),
    exitCode: z.number().int().nullable(),
    durationMs: z.number().int().nullable(),
    error: z.string().nullable(),
    createdAt: z.string().describe("ISO 8601"),
    startedAt: z.string().nullable(),
    finishedAt: z.string().nullable(),
    cancelRequested: z.boolean(),
    fsType: z.string().nullable(),
    medium: z.string().nullable(),
    notes: z.string().nullable(),
    tags: z.array(z.string()),
    createdById: z.string().uuid().nullable().describe("Who launched or imported it; null for reference data."),
    repeatGroup: z.string().uuid().nullable(),
    historyDay: z.string().nullable().describe("HISTORY runs: the sysstat file's own date, YYYY-MM-DD."),
    profile: z.unknown().describe("Host profile captured with the run."),
    result: z.unknown().describe("Normalised result { tool, toolVersion, format, measurements, warnings }."),
    warnings: z.array(z.string()),
    experiment: z
      .object({ id: z.string().uuid(), title: z.string(), arm: z.string(), round: z.number().int() })
      .nullable()
      .describe("Experiment runs: the experiment, the arm's label and the round (1-based); null otherwise."),
    setup: z.unknown().describe("What the arm's setup did (lab fs, tunables), as the agent's finish reported it."),
    flags: z
      .array(runCheckSchema)
      .describe("Checks the run failed against its own telemetry, computed when it finished: a SUCCEEDED run with flags is not a valid measurement."),
    checkedAt: z.string().nullable().describe("When the checks ran against the run's telemetry; null: there was none to check against (only its duration was judged)."),
    logPrunedAt: z
      .string()
      .nullable()
      .describe("When the retention setting dropped the run's raw output; its result, telemetry and checks are kept. null: the raw output is kept."),
    headline: z
      .object({ value: z.number(), unit: z.string(), noun: z.string() })
      .nullable()
      .describe("The result at a glance: the probe's first headline figure in its display unit (dd's throughput, fio's first job's bandwidth …); null for a run without a result."),
    preset: z.string().nullable().describe("The preset it was launched with; null for custom parameters, imports and reference runs."),
  })
  .meta({ id: "Run" });
export type RunJson = z.infer<typeof runJsonSchema>;


export const findingSchema = z.object({
  rule: z.string(),
  severity: z.enum(["info", "warning", "critical"]),
  title: z.string(),
  summary: z.string(),
  mechanism: z.string().describe("How the kernel produces what the rule reads."),
  limits: z.string().describe("What the rule cannot see or may get wrong."),
  evidence: z.object({ matched: z.number().int(), total: z.number().int(), samples: z.array(z.object({ label: z.string(), values: z.record(z.string(), z.number()) })) }),
  guide: z.object({ slug: z.string(), section: z.string(), href: z.string() }).nullable().describe("The guide section that explains it; null when no guide covers it."),
  doc: z.object({ title: z.string(), href: z.string() }).nullable().describe("An external document, for rules no guide covers."),
  next: z.object({ title: z.string(), href: z.string() }).nullable().describe("A run that tests what the finding leaves open."),
});

export const telemetryDocSchema = z.object({
  intervalSec: z.number(),
  units: z.record(z.string(), z.unknown()),
  samples: z.array(telemetrySampleSchema.omit({ numaFree: true }).extend({ numa: z.record(z.string(), z.number()).optional() })),
});
