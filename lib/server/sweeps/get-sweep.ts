// The one reader of a sweep (SweepView, lib/sweeps/types.ts): the experiments API, the sweep
// pages, the CLI, export and share all read a sweep through here.
import type { RunStatus } from "@prisma/client";
import { readRunProfile } from "../../../probes/profile/read-profile";
import { readSteadyState } from "../../../probes/fio/steady-state";
import type { Measurement } from "../../../probes/core/types";
import { db } from "../../db";
import { gridPoints } from "../../sweeps/grid";
import { pointFigures } from "../../sweeps/point-figures";
import { computeSaturation } from "../../sweeps/saturation";
import type { SweepPointResult, SweepPointStatus, SweepView, SweepWorkload } from "../../sweeps/types";
import { readArms } from "../experiments/arm-plan";
import { readSweep } from "./sweep-plan";

const STATUS: Record<RunStatus, SweepPointStatus> = { QUEUED: "pending", RUNNING: "running", SUCCEEDED: "done", FAILED: "failed", LOST: "failed", CANCELLED: "cancelled" };

function flagTitles(flags: unknown): string[] {
  if (!Array.isArray(flags)) return [];
  return flags.map((f) => (typeof f === "object" && f !== null && typeof (f as { title?: unknown }).title === "string" ? (f as { title: string }).title : "flagged by a run check"));
}

function measurementsOf(result: unknown): Measurement[] {
  const ms = (result as { measurements?: unknown } | null)?.measurements;
  return Array.isArray(ms) ? ms.filter((m): m is Measurement => typeof m === "object" && m !== null && typeof (m as Measurement).metric === "string" && typeof (m as Measurement).value === "number" && typeof (m as Measurement).dims === "object") : [];
}

function workloadOf(params: Record<string, unknown>, steadyState: SweepWorkload["steadyState"]): SweepWorkload {
  const rw = params.rw;
  const engine = params.ioengine;
  return {
    rw: rw === "read" || rw === "write" || rw === "randwrite" || rw === "randrw" ? rw : "randread",
    rwmixread: typeof params.rwmixread === "number" ? params.rwmixread : null,
    ioengine: engine === "libaio" || engine === "io_uring" ? engine : "psync",
    direct: params.direct !== false,
    sizeMiB: typeof params.sizeMiB === "number" ? params.sizeMiB : 0,
    pointRuntimeSec: typeof params.runtimeSec === "number" ? params.runtimeSec : 0,
    steadyState,
  };
}

/**
 * A sweep with every grid point's figures and the saturation over its done, valid points; null
 * when there is no such experiment or it is not a sweep. hideHost leaves the host's name and the
 * target path out (a share whose sharer did not choose them).
 */
export async function getSweepView(experimentId: string, opts: { hideHost?: boolean } = {}): Promise<SweepView | null> {
  if (!/^[0-9a-f-]{36}$/i.test(experimentId)) return null;
  const exp = await db().experiment.findUnique({
    where: { id: experimentId },
    include: {
      host: { select: { name: true } },
      runs: {
        select: { id: true, armIndex: true, status: true, result: true, flags: true, errorMessage: true, fsType: true, profile: true, params: true },
        orderBy: { createdAt: "asc" },
      },
    },
  });
  if (!exp || exp.kind !== "sweep") return null;
  const sweep = readSweep(exp.sweep);
  if (!sweep) return null;
  const arms = readArms(exp.arms);
  const keys = gridPoints(sweep.grid);
  const orderOf = new Map(sweep.order.map((armIndex, i) => [armIndex, i]));
  let fioVersion: string | null = null;
  let fsType: string | null = null;
  const points: SweepPointResult[] = keys.map((key, i) => {
    // The point's latest run (one per point; a later one would be a re-run).
    const run = exp.runs.filter((r) => r.armIndex === i).at(-1);
    const params = (arms[i]?.params ?? {}) as Record<string, unknown>;
    const enabled = typeof params.steadyState === "object" && params.steadyState !== null;
    const empty = { iops: null, bandwidthBps: null, latP50Ns: null, latP99Ns: null, latP999Ns: null, runtimeSec: null };
    if (!run) return { ...key, order: orderOf.get(i) ?? i, runId: null, status: "pending", problem: null, ...empty, steady: { enabled, reached: null, afterSec: null } };
    fsType ??= run.fsType ?? readRunProfile(run.profile).target?.fsType ?? null;
    const version = (run.result as { toolVersion?: unknown } | null)?.toolVersion;
    if (typeof version === "string" && version) fioVersion ??= version.startsWith("fio-") ? version : `fio-${version}`;
    const flags = flagTitles(run.flags);
    let status = STATUS[run.status];
    let problem: string | null = null;
    if (status === "done" && flags.length > 0) {
      status = "invalid";
      problem = flags.join("; ");
    } else if (status === "failed" || status === "cancelled") problem = run.errorMessage ?? (status === "failed" ? "The run failed." : "Cancelled.");
    const ms = run.status === "SUCCEEDED" ? measurementsOf(run.result) : [];
    const steady = enabled && run.status === "SUCCEEDED" ? readSteadyState(ms) : null;
    return {
      ...key,
      order: orderOf.get(i) ?? i,
      runId: run.id,
      status,
      problem,
      ...(ms.length > 0 ? pointFigures(ms) : empty),
      steady: { enabled, reached: steady?.reached ?? null, afterSec: steady?.afterSec ?? null },
    };
  });
  // Once any point has a result the rule answers, if only with "not enough finished points"
  // (points the run checks flagged have figures but do not count).
  const counted = points.filter((p) => p.status === "done");
  const ended = points.some((p) => p.status === "done" || p.status === "invalid");
  const params = (exp.params ?? {}) as Record<string, unknown>;
  return {
    experimentId: exp.id,
    title: exp.title,
    hostLabel: opts.hideHost ? null : (exp.host?.name ?? exp.hostLabel),
    target: opts.hideHost ? null : typeof params.target === "string" ? params.target : null,
    fsType,
    fioVersion,
    workload: workloadOf(params, sweep.steadyState),
    grid: sweep.grid,
    points,
    saturation: ended ? computeSaturation(counted) : null,
    status: exp.status,
    createdAt: exp.createdAt.toISOString(),
    finishedAt: exp.finishedAt?.toISOString() ?? null,
  };
}
