// The bodies and answers of /api/comparisons; the compare page's share form uses the same ones.
import { z } from "zod";
import { isUuid, MAX_COMPARE_RUNS } from "../../compare/run-ids";

// What a public share may reveal about the hosts; the defaults hide host names, addresses, paths and
// hardware models, because a share link travels further than its author expects
// (lib/server/comparisons/redact-share.ts applies it, field by field of the profile).
export const shareIncludeSchema = z
  .object({
    /** Registered host names, import labels, the OS hostname, file servers and IP addresses (mount sources and options). */
    hostnames: z.boolean().default(false),
    /** Target directories, mount points, the paths of mount sources and device nodes. */
    paths: z.boolean().default(false),
    /** Kernel release and distribution. */
    kernel: z.boolean().default(true),
    /** Disk and CPU models and disk identifiers (WWNs). */
    models: z.boolean().default(false),
  })
  .default({ hostnames: false, paths: false, kernel: true, models: false });
export type ShareInclude = z.infer<typeof shareIncludeSchema>;

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

export const comparisonSchema = z
  .object({
    title: z.string(),
    createdAt: z.string(),
    runs: z.array(z.record(z.string(), z.unknown())).describe("Each run's label, profile facts and result, as frozen at share time."),
  })
  .meta({ id: "Comparison" });
