import type { Prisma } from "@prisma/client";
import { z } from "zod";
import { db } from "../../db";
import { AppError } from "../../http/app-error";
import { RUN_ORIGINS, RUN_STATUSES } from "../../run-status";

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
  experiment: { select: { title: true, arms: true } },
  historyDay: true,
  host: { select: { name: true } },
} satisfies Prisma.ProbeRunSelect;

export type RunRow = Prisma.ProbeRunGetPayload<{ select: typeof runSelect }>;

/** One check a run failed against its own telemetry (probes/checks/types.ts RunCheck). */
export const runCheckSchema = z
  .object({
    code: z.string().describe("too-short, too-few-samples, write-not-on-device, cache-served-read, device-busy-elsewhere, cpu-busy-elsewhere"),
    title: z.string(),
    evidence: z.string().describe("The figures that decided it."),
    guide: z.object({ slug: z.string(), section: z.string(), href: z.string() }).nullable(),
  })
  .meta({ id: "RunCheck" });

const storedFlags = z.array(runCheckSchema);

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
  })
  .meta({ id: "Run" });
export type RunJson = z.infer<typeof runJsonSchema>;

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
  };
}

export async function getRun(runId: string): Promise<RunJson> {
  const r = await db().probeRun.findUnique({ where: { id: runId }, select: runSelect });
  if (!r) throw new AppError("NOT_FOUND", `No run ${runId}.`);
  return runToJson(r);
}
