import type { Prisma } from "@prisma/client";
import { z } from "zod";
import { db } from "../../db";
import { AppError } from "../../http/app-error";
import { getProbe, headlineValues, type NormalisedResult } from "../../../probes/catalog";
import { runCheckSchema, type RunJson } from "../../api/schemas/runs";

export const runSelect = {
  id: true,
  hostId: true,
  hostLabel: true,
  probe: true,
  params: true,
  status: true,
  origin: true,
  exitCode: true,
  durationMs: true,
  errorMessage: true,
  createdAt: true,
  startedAt: true,
  finishedAt: true,
  cancelRequestedAt: true,
  profile: true,
  result: true,
  warnings: true,
  fsType: true,
  medium: true,
  notes: true,
  tags: true,
  repeatGroup: true,
  createdById: true,
  experimentId: true,
  armIndex: true,
  round: true,
  setup: true,
  flags: true,
  checkedAt: true,
  logPrunedAt: true,
  experiment: { select: { title: true, arms: true } },
  historyDay: true,
  preset: true,
  host: { select: { name: true } },
} satisfies Prisma.ProbeRunSelect;

export type RunRow = Prisma.ProbeRunGetPayload<{ select: typeof runSelect }>;

const storedFlags = z.array(runCheckSchema);


/** The result at a glance: the probe's first headline figure (what an experiment compares first). */
function headlineOf(r: Pick<RunRow, "status" | "probe" | "params" | "result">): RunJson["headline"] {
  const result: unknown = r.result;
  if (r.status !== "SUCCEEDED" || !result || typeof result !== "object" || !Array.isArray((result as NormalisedResult).measurements)) return null;
  // An imported run's parameters are what its output told (often nothing): read its figure with
  // the probe's defaults filled in, so it has a value too (the noun then follows the defaults).
  const stored = r.params && typeof r.params === "object" ? (r.params as Record<string, unknown>) : {};
  try {
    const h =
      headlineValues(r.probe, result as NormalisedResult, r.params)[0] ??
      headlineValues(r.probe, result as NormalisedResult, { ...getProbe(r.probe)?.defaults, target: "/", ...stored })[0];
    return h ? { value: h.value, unit: h.unit, noun: h.noun } : null;
  } catch {
    // A stored result of a shape this release does not read (an older parser's, hand-made): the
    // run is still shown, without a figure at a glance.
    return null;
  }
}

export function runToJson(r: RunRow): RunJson {
  return {
    id: r.id,
    hostId: r.hostId,
    hostName: r.host?.name ?? r.hostLabel,
    hostRemoved: (r.origin === "AGENT" || r.origin === "HISTORY") && r.hostId === null,
    probe: r.probe,
    params: r.params,
    status: r.status,
    origin: r.origin,
    exitCode: r.exitCode,
    durationMs: r.durationMs,
    error: r.errorMessage,
    createdAt: r.createdAt.toISOString(),
    startedAt: r.startedAt?.toISOString() ?? null,
    finishedAt: r.finishedAt?.toISOString() ?? null,
    cancelRequested: r.cancelRequestedAt !== null,
    fsType: r.fsType,
    medium: r.medium,
    notes: r.notes,
    tags: r.tags,
    createdById: r.createdById,
    repeatGroup: r.repeatGroup,
    historyDay: r.historyDay?.toISOString().slice(0, 10) ?? null,
    profile: r.profile,
    result: r.result,
    warnings: Array.isArray(r.warnings) ? (r.warnings as string[]) : [],
    experiment:
      r.experimentId && r.experiment
        ? {
            id: r.experimentId,
            title: r.experiment.title,
            arm: (Array.isArray(r.experiment.arms) ? (r.experiment.arms as { label?: string }[])[r.armIndex ?? -1]?.label : undefined) ?? `arm ${(r.armIndex ?? 0) + 1}`,
            round: (r.round ?? 0) + 1,
          }
        : null,
    setup: r.setup,
    flags: storedFlags.safeParse(r.flags).data ?? [],
    checkedAt: r.checkedAt?.toISOString() ?? null,
    logPrunedAt: r.logPrunedAt?.toISOString() ?? null,
    headline: headlineOf(r),
    preset: r.preset,
  };
}

export async function getRun({ id: runId }: { id: string }): Promise<RunJson> {
  const r = await db().probeRun.findUnique({ where: { id: runId }, select: runSelect });
  if (!r) throw new AppError("NOT_FOUND", `No run ${runId}.`);
  return runToJson(r);
}
