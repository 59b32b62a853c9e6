// The grid of a sweep experiment (POST /api/experiments with kind "sweep"): checked here with the
// same ranges as fio's own parameters (probes/fio/params.ts); each point's full parameters are
// checked again by the fio probe's schema when the sweep is created.
import { z } from "zod";
import { steadyStateSchema } from "../../../probes/fio/steady-state";

export const MAX_SWEEP_POINTS = 64;

/** Ascending and unique, so a grid reads one way and no point runs twice. */
function ascendingUnique(name: string) {
  return (values: number[], ctx: z.core.$RefinementCtx<number[]>) => {
    for (let i = 1; i < values.length; i++) {
      if (values[i]! <= values[i - 1]!) {
        ctx.addIssue({ code: "custom", message: `${name} must be ascending without repeats (${values[i - 1]} then ${values[i]}).` });
        return;
      }
    }
  };
}

export const sweepSpecSchema = z
  .object({
    iodepths: z
      .array(z.number().int("iodepths must be whole numbers").min(1, "an iodepth is at least 1").max(1024, "an iodepth is at most 1024"))
      .min(1, "Give at least one iodepth.")
      .max(32, "At most 32 iodepths.")
      .superRefine(ascendingUnique("iodepths")),
    numjobs: z
      .array(z.number().int("numjobs must be whole numbers").min(1, "numjobs is at least 1").max(64, "numjobs is at most 64"))
      .min(1, "Give at least one job count.")
      .max(32, "At most 32 job counts.")
      .superRefine(ascendingUnique("numjobs")),
    blockSizesKiB: z
      .array(
        z
          .number()
          .int("block sizes must be whole KiB")
          .min(4, "block size must be at least 4 KiB (direct I/O needs whole logical blocks)")
          .max(16384, "block size must be at most 16 MiB")
          .refine((n) => (n & (n - 1)) === 0, "block size must be a power of two"),
      )
      .min(1, "Give at least one block size, or leave blockSizesKiB out.")
      .max(8, "At most 8 block sizes.")
      .superRefine(ascendingUnique("blockSizesKiB"))
      .optional(),
    /** fio's steady state for every point; null or left out: each point runs its full runtime. */
    steadyState: steadyStateSchema.nullable().optional(),
    /** Each point runs once (the interleaved order, not repeats, guards against drift). */
    repeats: z.literal(1, { error: "A sweep runs each point once: repeats must be 1." }).optional(),
  })
  .strict()
  .superRefine((s, ctx) => {
    const points = s.iodepths.length * s.numjobs.length * (s.blockSizesKiB?.length ?? 1);
    if (points > MAX_SWEEP_POINTS) ctx.addIssue({ code: "custom", path: ["iodepths"], message: `The grid has ${points} points; at most ${MAX_SWEEP_POINTS}.` });
  });
export type SweepSpecInput = z.infer<typeof sweepSpecSchema>;

/**
 * The parts of a sweep body that tie the grid to the workload, as field errors: an iodepth above
 * 1 needs an asynchronous engine, and each point needs a time limit.
 */
export function sweepBodyIssues(b: { probe: string; params?: Record<string, unknown>; preset?: string; arms: unknown[]; sweep?: SweepSpecInput }): { path: (string | number)[]; message: string }[] {
  const issues: { path: (string | number)[]; message: string }[] = [];
  if (b.probe !== "fio") issues.push({ path: ["probe"], message: 'A sweep runs fio: probe must be "fio".' });
  if (!b.sweep) issues.push({ path: ["sweep"], message: "A sweep needs sweep: { iodepths, numjobs }." });
  if (b.arms.length > 0) issues.push({ path: ["arms"], message: "A sweep has no arms: its points come from sweep.iodepths × sweep.numjobs." });
  if (b.preset !== undefined) issues.push({ path: ["preset"], message: "A sweep takes its workload from params, not a preset." });
  const p = b.params ?? {};
  if (p.runtimeSec === undefined) issues.push({ path: ["params", "runtimeSec"], message: "A sweep needs params.runtimeSec: each point's time limit in seconds." });
  for (const k of ["iodepth", "numjobs"] as const) if (p[k] !== undefined) issues.push({ path: ["params", k], message: `The sweep sets ${k} per point: leave params.${k} out.` });
  if (p.blockSizeKiB !== undefined && b.sweep?.blockSizesKiB) issues.push({ path: ["params", "blockSizeKiB"], message: "Give params.blockSizeKiB or sweep.blockSizesKiB, not both." });
  const engine = p.ioengine ?? "psync";
  if (b.sweep && engine === "psync" && b.sweep.iodepths.some((d) => d > 1)) {
    issues.push({ path: ["sweep", "iodepths"], message: "psync is synchronous: an iodepth above 1 needs params.ioengine libaio or io_uring." });
  }
  return issues;
}

const key = { iodepth: z.number().int(), numjobs: z.number().int(), blockSizeKiB: z.number().int() };
const steadySpec = z.object({ metric: z.enum(["iops", "iops_slope", "bw", "bw_slope"]), limitPercent: z.number(), windowSec: z.number(), rampSec: z.number() });

/** A sweep as read (lib/sweeps/types.ts SweepView), in GET /api/experiments/{id} and the export. */
export const sweepViewSchema = z.object({
  experimentId: z.string(),
  title: z.string(),
  hostLabel: z.string().nullable().describe("null when hidden (a share whose sharer left host details out)."),
  target: z.string().nullable(),
  fsType: z.string().nullable(),
  fioVersion: z.string().nullable().describe('fio\'s version as the host reported it ("fio-3.33").'),
  workload: z.object({
    rw: z.enum(["read", "write", "randread", "randwrite", "randrw"]),
    rwmixread: z.number().nullable(),
    ioengine: z.enum(["psync", "libaio", "io_uring"]),
    direct: z.boolean(),
    sizeMiB: z.number(),
    pointRuntimeSec: z.number(),
    steadyState: steadySpec.nullable(),
  }),
  grid: z.object({ iodepths: z.array(z.number().int()), numjobs: z.array(z.number().int()), blockSizesKiB: z.array(z.number().int()) }),
  points: z
    .array(
      z.object({
        ...key,
        order: z.number().int().describe("When the point ran among the others (0-based): points run interleaved, not in grid order."),
        runId: z.string().nullable(),
        status: z.enum(["pending", "running", "done", "failed", "cancelled", "invalid"]),
        problem: z.string().nullable().describe("Why a point is failed, cancelled or invalid (the run's error or its checks' titles)."),
        iops: z.number().nullable().describe("Reads and writes together."),
        bandwidthBps: z.number().nullable(),
        latP50Ns: z.number().nullable(),
        latP99Ns: z.number().nullable(),
        latP999Ns: z.number().nullable(),
        runtimeSec: z.number().nullable(),
        steady: z.object({ enabled: z.boolean(), reached: z.boolean().nullable(), afterSec: z.number().nullable() }),
      }),
    )
    .describe("Every grid point in grid order (iodepth, numjobs, block size ascending)."),
  saturation: z
    .object({
      rule: z.string(),
      point: z.object(key).nullable(),
      iops: z.number().nullable(),
      latP99Ns: z.number().nullable(),
      sentence: z.string(),
      perCurve: z.array(z.object({ numjobs: z.number().int(), blockSizeKiB: z.number().int(), iodepth: z.number().int().nullable() })),
    })
    .nullable()
    .describe("From the done, valid points (lib/sweeps/saturation.ts); null while none has finished."),
  status: z.enum(["RUNNING", "FINISHED", "FAILED", "CANCELLED"]),
  createdAt: z.string(),
  finishedAt: z.string().nullable(),
});
