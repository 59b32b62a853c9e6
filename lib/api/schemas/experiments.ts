// The bodies, queries and answers of /api/experiments, declared in lib/api/experiments.ts.
import { z } from "zod";
import { uuidSchema } from "../../http/params";
import { ARM_TUNABLE_NAMES, notArmSetting, TUNABLES } from "../../../probes/tunables/catalogue";
import { sweepBodyIssues, sweepSpecSchema, sweepViewSchema } from "./sweeps";

const tunableValue = z.union([z.string().trim().min(1).max(500), z.number().finite()]).transform((v) => String(v));

/**
 * One tunable's value, checked by the catalogue's own validator (probes/tunables/), the one the
 * agent uses before it writes: a range, a fixed list, or for a disk's scheduler every scheduler
 * the kernel has (the disk's own list is on the agent, which checks it again). An action
 * (vm.drop_caches) is refused as a value. The value stored is the validator's.
 */
function catalogueValue(name: string) {
  const def = TUNABLES.find((t) => t.name === name)!;
  return tunableValue.transform((v, ctx) => {
    const refused = notArmSetting(name);
    const checked = refused ? { ok: false as const, error: refused } : def.validate(v, null);
    if (checked.ok) return checked.value;
    ctx.addIssue({ code: "custom", message: refused ? `${refused}.` : `${name} ${checked.error}.` });
    return z.NEVER;
  });
}

/**
 * An arm's tunables, keyed by the catalogue's names and nothing else: an unknown key, and
 * `__proto__` (JSON.parse makes it an own key, which a plain record would drop and store an arm
 * that changes nothing), is refused by name.
 */
const armTunablesSchema = z.strictObject(Object.fromEntries(TUNABLES.map((t) => [t.name, catalogueValue(t.name).optional()])), {
  error: (iss) =>
    iss.code === "unrecognized_keys"
      ? `${iss.keys.map((k) => JSON.stringify(k)).join(", ")} ${iss.keys.length === 1 ? "is" : "are"} not in Probebook's tunable catalogue: choose from ${ARM_TUNABLE_NAMES.join(", ")}.`
      : undefined,
}).transform((t) => t as Record<string, string>);

/** A lab file system (`{ fs: "ext4" }`), tunable values (`{ tunables: { … } }`) or another target (`{ target: DIR }`). */
export const armInputSchema = z
  .object({
    label: z.string().trim().min(1).max(60).optional(),
    fs: z.string().trim().min(1).max(20).optional(),
    mountOptions: z.array(z.string().trim().min(1).max(100)).max(20).optional(),
    tunables: armTunablesSchema.optional(),
    target: z.string().min(1).max(4096).optional(),
  })
  .strict()
  .refine((a) => a.fs !== undefined || a.tunables !== undefined || a.target !== undefined, {
    message: "An arm needs fs (a lab file system), tunables, or target.",
  })
  .refine((a) => !(a.fs !== undefined && a.target !== undefined), { message: "A lab arm runs in its own file system: give fs or target, not both." })
  .refine((a) => a.mountOptions === undefined || a.fs !== undefined, { path: ["mountOptions"], message: "Mount options belong to a lab arm (fs)." });
export type ArmInput = z.infer<typeof armInputSchema>;

export const repeatsSchema = z
  .object({
    /** Minimum VALID runs per arm: below 3 there is no interval worth the name; 4 (the default) is the first count whose interval reaches 95 %. */
    min: z.number().int().min(3, "At least 3 valid runs per arm: fewer give no interval worth reading.").max(50).default(4),
    /** Maximum measured runs per arm (a warm-up run comes on top). */
    max: z.number().int().min(3, "max must be 3 or more.").max(50).default(10),
    stop: z.enum(["precision", "cv"]).default("precision"),
    /** Stop "precision": every interval within ±this % of its ratio. */
    precisionPct: z.number().min(0.5, "A precision under ±0.5 % is out of reach for a storage benchmark.").max(100).default(5),
    /** Stop "cv": every arm's coefficient of variation under this %. */
    cvTarget: z.number().min(0.1).max(100).default(2.5),
    /** Minutes from the start after which no further round is queued. */
    budgetMin: z.number().min(1, "The budget must be at least 1 minute.").max(24 * 60, "The budget is at most 1440 minutes (a day).").default(15),
    warmup: z.boolean().default(true),
    order: z.enum(["abba", "random"]).default("abba"),
    dropCaches: z.boolean().default(false),
  })
  .refine((r) => r.max >= r.min, { path: ["max"], message: "max must be at least min." });
export type Repeats = z.infer<typeof repeatsSchema>;

export const createExperimentSchema = z
  .object({
    hostId: uuidSchema("Pick a registered host."),
    title: z.string().trim().min(1).max(200).optional(),
    /** "ab" (default): arms compared over rounds. "sweep": one fio workload over an iodepth × numjobs grid. */
    kind: z.enum(["ab", "sweep"]).default("ab"),
    /** kind "sweep": the grid and steady state (lib/api/schemas/sweeps.ts). */
    sweep: sweepSpecSchema.optional(),
    probe: z.string().min(1).max(50),
    /** Probe parameters; `target` may be left out when every arm says where it runs. */
    params: z.record(z.string(), z.unknown()).optional(),
    /** A preset id of the probe ("write-direct"), instead of or under `params`. */
    preset: z.string().min(1).max(100).optional(),
    /** kind "ab": two to eight arms; a sweep has none. */
    arms: z.array(armInputSchema).max(8, "At most 8 arms.").default([]),
    repeats: repeatsSchema.default({ min: 4, max: 10, stop: "precision", precisionPct: 5, cvTarget: 2.5, budgetMin: 15, warmup: true, order: "abba", dropCaches: false }),
    /**
     * Where the lab arms make their file systems: a loop-mounted image each (default), or one
     * whole block device the agent was started with (`--lab-device`), formatted for each arm in turn.
     */
    lab: z
      .object({
        kind: z.enum(["image", "device"]).default("image"),
        /** Which `--lab-device`; may be left out when the host offers exactly one. */
        device: z.string().min(1).max(4096).optional(),
      })
      .strict()
      .optional(),
  })
  .strict()
  .refine((b) => b.params !== undefined || b.preset !== undefined, { path: ["params"], message: "Give params or a preset." })
  .superRefine((b, ctx) => {
    if (b.kind === "sweep") {
      for (const issue of sweepBodyIssues(b)) ctx.addIssue({ code: "custom", ...issue });
    } else {
      if (b.arms.length < 2) ctx.addIssue({ code: "custom", path: ["arms"], message: "An experiment compares at least two arms." });
      if (b.sweep !== undefined) ctx.addIssue({ code: "custom", path: ["sweep"], message: 'sweep belongs to kind "sweep".' });
    }
  });
export type CreateExperimentInput = z.infer<typeof createExperimentSchema>;

export const listExperimentsQuerySchema = z.object({
  hostId: uuidSchema("hostId must be a host id").optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

/** GET /api/experiments/:id */
export const experimentResponseSchema = z.object({
  id: z.string(),
  title: z.string(),
  kind: z.enum(["ab", "sweep"]).describe('"ab": arms compared over rounds; "sweep": one fio workload over an iodepth × numjobs grid.'),
  sweep: sweepViewSchema.optional().describe('kind "sweep": the grid\'s points, their figures and the saturation point.'),
  hostId: z.string().nullable(),
  hostName: z.string().nullable().describe("The host's name; for a removed host, the name it had."),
  hostRemoved: z.boolean().describe("Run on a host that has since been deleted; the experiment and its runs are kept."),
  probe: z.string(),
  status: z.enum(["RUNNING", "FINISHED", "FAILED", "CANCELLED"]),
  decision: z.string().nullable(),
  decisionMessage: z.string().nullable(),
  /** The repeat policy as stored (min, max, stop rule, targets, order, warm-up, budget). */
  policy: z.unknown(),
  /** Where the stop rule stands: widest interval half-width (%) against the target, minutes against the budget. */
  precision: z.object({
    halfWidthPct: z.number().nullable(),
    validPerArm: z.number(),
    targetPct: z.number(),
    minutesElapsed: z.number(),
    budgetMin: z.number().nullable(),
    text: z.string(),
  }),
  arms: z.array(
    z.object({
      label: z.string(),
      /** What the arm sets up (lab file system, tunables, target), as stored. */
      setup: z.unknown(),
      runIds: z.array(z.string()),
      /** Runs that count: succeeded, no flag from the run checks, not a warm-up. */
      validRunIds: z.array(z.string()),
      excluded: z.number(),
      median: z.number().nullable(),
      cv: z.number().nullable(),
    }),
  ),
  /** Empty for a FAILED or CANCELLED experiment: it gives no ratio. */
  verdict: z.array(
    z.object({
      metric: z.string(),
      dims: z.record(z.string(), z.string()),
      noun: z.string(),
      unit: z.string(),
      baseline: z.string(),
      arm: z.string(),
      baselineMedian: z.number().nullable(),
      armMedian: z.number().nullable(),
      /** collecting: fewer than 3 valid runs in an arm, no ratio; decided: the interval excludes no change. */
      state: z.enum(["collecting", "decided", "no-difference-detected"]),
      ratio: z.number().nullable(),
      ciLow: z.number().nullable(),
      ciHigh: z.number().nullable(),
      /** The interval's exact coverage (0.9 with 3 runs per arm, ≥ 0.95 from 4 or 5 on). */
      confidence: z.number().nullable(),
      /** max(ciHigh / ratio − 1, 1 − ciLow / ratio) × 100. */
      halfWidthPct: z.number().nullable(),
      /** More valid runs per arm that would likely decide a no-difference line; null otherwise or when the host is too noisy. */
      runsNeeded: z.number().nullable(),
      /** Valid runs per arm. */
      runs: z.object({ baseline: z.number(), arm: z.number() }),
      sentence: z.string(),
    }),
  ),
  warnings: z.array(z.string()),
  /** Runs left out of the statistics and why (flag titles, "warm-up", how it ended). */
  excluded: z.array(z.object({ id: z.string(), armIndex: z.number(), round: z.number(), reasons: z.array(z.string()) })),
  reverted: z.boolean().nullable(),
  /** Every run of the experiment with its arm, round, status and why it is left out, if it is. */
  runs: z.array(
    z.object({
      id: z.string(),
      armIndex: z.number().int(),
      round: z.number().int(),
      status: z.string(),
      fsType: z.string().nullable(),
      setup: z.unknown().describe("The arm's setup report from the agent's finish."),
      startedAt: z.string().nullable(),
      finishedAt: z.string().nullable(),
      errorMessage: z.string().nullable(),
      warmup: z.boolean(),
      excludedBecause: z.array(z.string()).describe("Why the run is left out of the statistics; empty when it counts or has not ended."),
    }),
  ),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
});

/** One row of GET /api/experiments (lib/server/experiments/list-experiments.ts). */
export const experimentListItemSchema = z.object({
  id: z.string(),
  title: z.string(),
  kind: z.enum(["ab", "sweep"]),
  hostName: z.string().nullable(),
  hostRemoved: z.boolean().describe("Run on a host that has since been deleted; hostName is the name it had."),
  probe: z.string(),
  arms: z.array(z.string()).describe("The arms' labels."),
  status: z.string(),
  decision: z.string().nullable(),
  runs: z.object({ ended: z.number().int(), total: z.number().int() }),
  headline: z.string().nullable().describe("The first verdict sentence, when it has ended with one."),
  createdAt: z.string(),
});
