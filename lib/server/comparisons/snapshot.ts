// The frozen form of a shared comparison: everything the page, the JSON and the CSV need, so a
// later change or deletion of the runs does not change or break it.
import { z } from "zod";
import { sweepViewSchema } from "../../api/schemas/sweeps";
import { TOOL_IDS } from "../../../probes/catalog";
import type { CompareRun } from "../../compare/types";
import { RUN_ORIGINS } from "../../run-status";

const measurement = z.object({
  metric: z.string(),
  value: z.number(),
  unit: z.string(),
  dims: z.record(z.string(), z.union([z.string(), z.number()])),
});

const result = z.object({
  tool: z.enum(TOOL_IDS),
  toolVersion: z.string().nullable(),
  measurements: z.array(measurement),
  warnings: z.array(z.string()),
});

export const compareRunSchema = z.object({
  id: z.string(),
  label: z.string(),
  probe: z.enum(TOOL_IDS),
  origin: z.enum(RUN_ORIGINS),
  status: z.string(),
  hostName: z.string().nullable(),
  hostKey: z.string(),
  createdAt: z.string(),
  repeatGroup: z.string().nullable(),
  params: z.record(z.string(), z.unknown()),
  fsType: z.string().nullable(),
  medium: z.string().nullable(),
  profile: z.record(z.string(), z.unknown()).nullable(),
  result: result.nullable(),
  flags: z.array(z.object({ code: z.string(), title: z.string(), evidence: z.string() })).optional(),
}) satisfies z.ZodType<CompareRun>;

/** A shared experiment's answer, frozen beside its runs (absent for plain comparisons). */
export const experimentSnapshotSchema = z.object({
  status: z.string(),
  decisionMessage: z.string().nullable(),
  reverted: z.boolean().nullable(),
  policy: z.object({ min: z.number(), max: z.number(), cvTarget: z.number() }),
  arms: z.array(z.object({ label: z.string(), setup: z.string(), median: z.number().nullable(), cv: z.number().nullable(), runs: z.number() })),
  unit: z.string().nullable(),
  verdict: z.array(z.object({ sentence: z.string(), metric: z.string(), baseline: z.string(), arm: z.string(), ratio: z.number(), ciLow: z.number(), ciHigh: z.number() })),
  warnings: z.array(z.string()),
  /** Its host was deleted before the share (the host's name is never shared). Absent in older shares. */
  hostRemoved: z.boolean().optional(),
  /** A shared sweep: its SweepView, host name and target left out unless the sharer chose them. */
  sweep: sweepViewSchema.optional(),
});
export type ExperimentSnapshot = z.infer<typeof experimentSnapshotSchema>;

export const snapshotSchema = z.object({
  version: z.literal(1),
  runs: z.array(compareRunSchema).min(1),
  experiment: experimentSnapshotSchema.optional(),
});

export type ComparisonSnapshot = z.infer<typeof snapshotSchema>;

export function makeSnapshot(runs: readonly CompareRun[], experiment?: ExperimentSnapshot): ComparisonSnapshot {
  return { version: 1, runs: runs.map((r) => ({ ...r })), ...(experiment ? { experiment } : {}) };
}

/** One run of a comparison in its public JSON. */
export function publicRun(r: CompareRun) {
  return {
    label: r.label,
    probe: r.probe,
    origin: r.origin,
    createdAt: r.createdAt,
    fsType: r.fsType,
    medium: r.medium,
    params: r.params,
    profile: r.profile,
    result: r.result,
    flags: r.flags ?? [],
  };
}
