// The new-sweep form's values, the request it sends, its live estimate and where the API's field
// errors go: plain functions, so what the form sends is tested without a browser.
import type { SteadyStateSpec, SweepWorkload } from "@/lib/sweeps/types";

export const QD_CHOICES = [1, 2, 4, 8, 16, 32, 64, 128, 256] as const;
export const JOB_CHOICES = [1, 2, 4, 8, 16] as const;
export const BS_CHOICES = [4, 8, 16, 32, 64, 128, 256, 1024] as const;

export interface SweepFormValues {
  hostId: string;
  target: string;
  title: string;
  rw: SweepWorkload["rw"];
  rwmixread: number;
  blockSizeKiB: number;
  ioengine: SweepWorkload["ioengine"];
  direct: boolean;
  sizeMiB: number;
  pointRuntimeSec: number;
  iodepths: number[];
  numjobs: number[];
  /** Empty: the block size is not swept (the workload's one is used). */
  blockSizesKiB: number[];
  steady: boolean;
  steadyState: SteadyStateSpec;
}

export function defaultSweepValues(hostId: string, target: string): SweepFormValues {
  return {
    hostId,
    target,
    title: "",
    rw: "randread",
    rwmixread: 70,
    blockSizeKiB: 4,
    ioengine: "libaio",
    direct: true,
    sizeMiB: 1024,
    pointRuntimeSec: 30,
    iodepths: [1, 4, 16, 64],
    numjobs: [1, 2, 4],
    blockSizesKiB: [],
    steady: true,
    steadyState: { metric: "iops", limitPercent: 5, windowSec: 10, rampSec: 5 },
  };
}

export function pointCount(v: Pick<SweepFormValues, "iodepths" | "numjobs" | "blockSizesKiB">): number {
  return v.iodepths.length * v.numjobs.length * Math.max(1, v.blockSizesKiB.length);
}

/** The longest the sweep can take: every point runs its whole limit (steady state can only shorten it). */
export function worstCaseSec(v: Pick<SweepFormValues, "iodepths" | "numjobs" | "blockSizesKiB" | "pointRuntimeSec">): number {
  return pointCount(v) * (Number.isFinite(v.pointRuntimeSec) ? Math.max(0, v.pointRuntimeSec) : 0);
}

/** "1 h 12 min", "4 min 30 s", "45 s". */
export function durationText(sec: number): string {
  const s = Math.round(sec);
  if (s < 60) return `${s} s`;
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const r = s % 60;
  if (h > 0) return `${h} h${m > 0 ? ` ${m} min` : ""}`;
  return `${m} min${r > 0 ? ` ${r} s` : ""}`;
}

/** The body of POST /api/experiments for a sweep. Numbers the user left unreadable go as they are, for the API to name. */
export function sweepRequest(v: SweepFormValues): Record<string, unknown> {
  const params: Record<string, unknown> = {
    target: v.target,
    rw: v.rw,
    ioengine: v.ioengine,
    direct: v.direct,
    sizeMiB: v.sizeMiB,
    runtimeSec: v.pointRuntimeSec,
  };
  if (v.rw === "randrw") params.rwmixread = v.rwmixread;
  // A swept block size replaces the workload's: the API takes one or the other.
  if (v.blockSizesKiB.length === 0) params.blockSizeKiB = v.blockSizeKiB;
  const sort = (xs: number[]) => [...xs].sort((a, b) => a - b);
  return {
    kind: "sweep",
    hostId: v.hostId,
    ...(v.title.trim() ? { title: v.title.trim() } : {}),
    probe: "fio",
    params,
    sweep: {
      iodepths: sort(v.iodepths),
      numjobs: sort(v.numjobs),
      ...(v.blockSizesKiB.length > 0 ? { blockSizesKiB: sort(v.blockSizesKiB) } : {}),
      steadyState: v.steady ? v.steadyState : null,
    },
  };
}

/** The form's fields and the API paths whose errors each shows beside itself. */
export const FIELD_PATHS: Record<string, string[]> = {
  hostId: ["hostId"],
  target: ["params.target"],
  title: ["title"],
  rw: ["params.rw"],
  rwmixread: ["params.rwmixread"],
  blockSizeKiB: ["params.blockSizeKiB"],
  ioengine: ["params.ioengine"],
  direct: ["params.direct"],
  sizeMiB: ["params.sizeMiB"],
  pointRuntimeSec: ["params.runtimeSec"],
  iodepths: ["sweep.iodepths", "params.iodepth", "sweep"],
  numjobs: ["sweep.numjobs", "params.numjobs"],
  blockSizesKiB: ["sweep.blockSizesKiB"],
  steady: ["sweep.steadyState"],
};

/** A field's messages: its own paths and anything below them ("sweep.iodepths.3"). */
export function errorsFor(fieldErrors: Record<string, string[]>, field: string): string[] {
  const paths = FIELD_PATHS[field] ?? [field];
  return Object.entries(fieldErrors)
    .filter(([k]) => paths.some((p) => k === p || (p !== "sweep" && k.startsWith(`${p}.`))))
    .flatMap(([, m]) => m);
}

/** The API's errors no field shows: listed in the form's alert. */
export function unplacedErrors(fieldErrors: Record<string, string[]>): [string, string[]][] {
  const placed = new Set(Object.keys(FIELD_PATHS).flatMap((f) => Object.keys(fieldErrors).filter((k) => errorsFor({ [k]: ["x"] }, f).length > 0)));
  return Object.entries(fieldErrors).filter(([k]) => !placed.has(k));
}
