// The bodies and queries of /api/experiments, in one file so the API description can list them.
import { z } from "zod";
import { uuidSchema } from "../../http/params";

const tunableValue = z.union([z.string().trim().min(1).max(500), z.number().finite()]).transform((v) => String(v));

/** A lab file system (`{ fs: "ext4" }`), tunable values (`{ tunables: { … } }`) or another target (`{ target: DIR }`). */
export const armInputSchema = z
  .object({
    label: z.string().trim().min(1).max(60).optional(),
    fs: z.string().trim().min(1).max(20).optional(),
    mountOptions: z.array(z.string().trim().min(1).max(100)).max(20).optional(),
    tunables: z.record(z.string().min(1).max(100), tunableValue).optional(),
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
    min: z.number().int().min(2, "At least 2 rounds: one run per arm has no spread.").max(50).default(3),
    max: z.number().int().min(2).max(50).default(10),
    cvTarget: z.number().min(0.1).max(100).default(2.5),
    order: z.enum(["abba", "random"]).default("abba"),
    dropCaches: z.boolean().default(false),
  })
  .refine((r) => r.max >= r.min, { path: ["max"], message: "max must be at least min." });
export type Repeats = z.infer<typeof repeatsSchema>;

export const createExperimentSchema = z
  .object({
    hostId: uuidSchema("Pick a registered host."),
    title: z.string().trim().min(1).max(200).optional(),
    probe: z.string().min(1).max(50),
    /** Probe parameters; `target` may be left out when every arm says where it runs. */
    params: z.record(z.string(), z.unknown()).optional(),
    /** A preset id of the probe ("write-direct"), instead of or under `params`. */
    preset: z.string().min(1).max(100).optional(),
    arms: z.array(armInputSchema).min(2, "An experiment compares at least two arms.").max(8, "At most 8 arms."),
    repeats: repeatsSchema.default({ min: 3, max: 10, cvTarget: 2.5, order: "abba", dropCaches: false }),
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
  .refine((b) => b.params !== undefined || b.preset !== undefined, { path: ["params"], message: "Give params or a preset." });
export type CreateExperimentInput = z.infer<typeof createExperimentSchema>;

export const listExperimentsQuerySchema = z.object({
  hostId: uuidSchema("hostId must be a host id").optional(),
  limit: z.coerce.number().int().min(1).max(200).default(50),
});

/** GET /api/experiments/:id */
export const experimentResponseSchema = z.object({
  id: z.string(),
  status: z.enum(["RUNNING", "FINISHED", "FAILED", "CANCELLED"]),
  arms: z.array(z.object({ label: z.string(), runIds: z.array(z.string()), median: z.number().nullable(), cv: z.number().nullable() })),
  verdict: z.array(
    z.object({
      metric: z.string(),
      dims: z.record(z.string(), z.string()),
      baseline: z.string(),
      arm: z.string(),
      ratio: z.number(),
      ciLow: z.number(),
      ciHigh: z.number(),
      runs: z.object({ baseline: z.number(), arm: z.number() }),
      sentence: z.string(),
    }),
  ),
  reverted: z.boolean().nullable(),
});
