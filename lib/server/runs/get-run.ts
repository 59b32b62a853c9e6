import type { Prisma, RunOrigin, RunStatus } from "@prisma/client";
import { db } from "../../db";
import { AppError } from "../../http/app-error";

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
  repeatGroup: true,
  historyDay: true,
  host: { select: { name: true } },
} satisfies Prisma.ProbeRunSelect;

export type RunRow = Prisma.ProbeRunGetPayload<{ select: typeof runSelect }>;

export interface RunJson {
  id: string;
  hostId: string | null;
  hostName: string | null;
  probe: string;
  params: unknown;
  status: RunStatus;
  origin: RunOrigin;
  exitCode: number | null;
  durationMs: number | null;
  error: string | null;
  createdAt: string;
  startedAt: string | null;
  finishedAt: string | null;
  cancelRequested: boolean;
  fsType: string | null;
  medium: string | null;
  notes: string | null;
  repeatGroup: string | null;
  /** HISTORY runs: the sysstat file's own date, YYYY-MM-DD. */
  historyDay: string | null;
  profile: unknown;
  result: unknown;
  warnings: string[];
}

export function runToJson(r: RunRow): RunJson {
  return {
    id: r.id,
    hostId: r.hostId,
    hostName: r.host?.name ?? r.hostLabel,
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
    repeatGroup: r.repeatGroup,
    historyDay: r.historyDay?.toISOString().slice(0, 10) ?? null,
    profile: r.profile,
    result: r.result,
    warnings: Array.isArray(r.warnings) ? (r.warnings as string[]) : [],
  };
}

export async function getRun(runId: string): Promise<RunJson> {
  const r = await db().probeRun.findUnique({ where: { id: runId }, select: runSelect });
  if (!r) throw new AppError("NOT_FOUND", `No run ${runId}.`);
  return runToJson(r);
}
