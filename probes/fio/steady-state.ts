// fio's steady-state detection (steadystate=, steadystate_duration=, steadystate_ramp_time=): a
// time-based job ends early once its IOPS or bandwidth stay within a limit over a window.
// fio HOWTO, "Steady state" (https://fio.readthedocs.io/en/latest/fio_doc.html#steady-state):
//   steadystate=iops:5%   max deviation of each second's IOPS from the window's mean ≤ 5 % of it;
//   iops_slope:5%         the slope of a line fitted to the window ≤ 5 % of the mean (bw, bw_slope alike);
//   steadystate_duration  the rolling window (seconds); steadystate_ramp_time  seconds before the
//   first sample is collected. Without time_based and a runtime the job ends when the file is read
//   once, so the criterion needs a runtime to be the time limit. fio's own steadystate tests state
//   it: "if ss attained: min runtime = ss_dur + ss_ramp; if not attained: runtime = timeout".
// The JSON report then has, per job (one per group with group_reporting), a "steadystate" object:
//   { "ss": "iops:5.000000%", "duration": 2, "attained": 0|1, "criterion": "10.1%", … } (fio 3.33).
import { z } from "zod";
import type { Measurement } from "../core/types";

export const STEADY_METRICS = ["iops", "iops_slope", "bw", "bw_slope"] as const;

export const steadyStateSchema = z
  .object({
    metric: z.enum(STEADY_METRICS, { error: `steadyState.metric must be one of ${STEADY_METRICS.join(", ")}` }),
    limitPercent: z.number().gt(0, "steadyState.limitPercent must be above 0 %").max(100, "steadyState.limitPercent must be at most 100 %"),
    windowSec: z.number().int("steadyState.windowSec must be whole seconds").min(2, "steadyState.windowSec must be at least 2 s (fio needs two samples)").max(3600, "steadyState.windowSec must be at most 3600 s"),
    rampSec: z.number().int("steadyState.rampSec must be whole seconds").min(0, "steadyState.rampSec must be 0 or more").max(3600, "steadyState.rampSec must be at most 3600 s").default(0),
  })
  .strict();
/** The same shape as lib/sweeps/types.ts SteadyStateSpec (probes do not import lib/). */
export type SteadyStateSpec = z.output<typeof steadyStateSchema>;

/**
 * The refusal for a steady-state criterion the rest of the params cannot honour, or null: it ends
 * a time-based job, so it needs runtimeSec (the time limit), longer than the ramp and window.
 */
export function steadyStateRefusal(p: { steadyState?: SteadyStateSpec; runtimeSec?: number }): { path: string; message: string } | null {
  const ss = p.steadyState;
  if (!ss) return null;
  if (p.runtimeSec === undefined) return { path: "runtimeSec", message: "steadyState needs runtimeSec: fio checks it only in a time-based job, whose time limit the runtime is" };
  if (ss.rampSec + ss.windowSec > p.runtimeSec) {
    return { path: "steadyState.windowSec", message: `steadyState's ramp (${ss.rampSec} s) and window (${ss.windowSec} s) must fit within runtimeSec (${p.runtimeSec} s)` };
  }
  return null;
}

/** fio's arguments for the criterion (argv entries, never a shell string). */
export function steadyStateArgs(ss: SteadyStateSpec | undefined): string[] {
  if (!ss) return [];
  return [`--steadystate=${ss.metric}:${Number(ss.limitPercent.toFixed(3))}%`, `--steadystate_duration=${ss.windowSec}`, `--steadystate_ramp_time=${ss.rampSec}`];
}

/** "iops:5%,window=5,ramp=2" (the CLI's form) → the spec, or an error naming what is wrong. */
export function parseSteadyFlag(text: string): { ok: true; spec: SteadyStateSpec } | { ok: false; error: string } {
  const [head = "", ...rest] = text.split(",").map((s) => s.trim());
  const m = /^(iops|iops_slope|bw|bw_slope):(\d+(?:\.\d+)?)%?$/.exec(head);
  if (!m) return { ok: false, error: `"${head}" is not METRIC:LIMIT% (metric iops, iops_slope, bw or bw_slope, e.g. iops:5%)` };
  const raw: Record<string, unknown> = { metric: m[1], limitPercent: Number(m[2]), windowSec: 5, rampSec: 0 };
  for (const part of rest) {
    const kv = /^(window|ramp)=(\d+)s?$/.exec(part);
    if (!kv) return { ok: false, error: `"${part}" is not window=SECONDS or ramp=SECONDS` };
    raw[kv[1] === "window" ? "windowSec" : "rampSec"] = Number(kv[2]);
  }
  const parsed = steadyStateSchema.safeParse(raw);
  return parsed.success ? { ok: true, spec: parsed.data } : { ok: false, error: parsed.error.issues[0]?.message ?? "invalid steady-state criterion" };
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * A job's steady-state outcome as measurements: ss_attained (1 or 0) and, when attained, ss_after
 * (ms the job ran until fio ended it as steady: its longest direction's runtime, ramp included).
 */
export function steadyStateMeasurements(job: Record<string, unknown>, dims: Record<string, string>): Measurement[] {
  const ss = job.steadystate;
  if (!isObject(ss) || typeof ss.attained !== "number") return [];
  const out: Measurement[] = [{ metric: "ss_attained", value: ss.attained ? 1 : 0, unit: "", dims }];
  const runtimes = ["read", "write", "trim"].map((d) => (isObject(job[d]) ? (job[d] as Record<string, unknown>).runtime : null)).filter((v): v is number => typeof v === "number" && v > 0);
  if (ss.attained && runtimes.length > 0) out.push({ metric: "ss_after", value: Math.max(...runtimes), unit: "ms", dims });
  return out;
}

// The reading side lives in steady-state-read.ts, without zod, for the run page's live charts.
export { readSteadyState, steadyStateText } from "./steady-state-read";
