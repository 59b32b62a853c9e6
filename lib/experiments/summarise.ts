// From an experiment's runs to its answer: the headline figures of each run (the probe says
// which, probes/<tool>/headline.ts), grouped per arm, each arm's spread, and every arm against
// the baseline arm. Tool-agnostic: it only reads the catalog.
// Only valid runs count: SUCCEEDED, no flag from the run checks (probes/checks) and not a
// warm-up. A flagged run did not measure what it claims (served from cache, too short, a
// neighbour busy on the device), and averaging it in would make the verdict as wrong as it is.
import { headlineValues, type HeadlineValue, type NormalisedResult } from "../../probes/catalog";
import { armSpread, verdict, type VerdictLine } from "./verdict";

export interface SummaryRun {
  id: string;
  armIndex: number;
  status: string;
  params: unknown;
  result: unknown;
  warnings?: unknown;
  /** RunCheck[] filled when the run finished; any entry makes the run invalid. */
  flags?: unknown;
  round?: number | null;
}

/** A run left out of the statistics and why: its flags' titles, "warm-up", or how it ended. */
export interface ExcludedRun {
  id: string;
  armIndex: number;
  round: number;
  reasons: string[];
}

export interface HeadlineKey {
  key: string;
  metric: string;
  dims: Record<string, string>;
  noun: string;
  unit: string;
  betterWhen: "higher" | "lower";
  verb?: string;
}

export interface ArmSummary {
  label: string;
  runIds: string[];
  /** Of the first headline figure, in its display unit. */
  median: number | null;
  /** Coefficient of variation of the first headline figure, as a fraction. */
  cv: number | null;
  /** Valid runs only (see the file's head). */
  validRunIds: string[];
  /** Ended runs that are not valid. */
  excluded: number;
  /** Every valid run's value of each headline figure, by HeadlineKey.key. */
  values: Record<string, number[]>;
}

export interface ExperimentSummary {
  headlines: HeadlineKey[];
  arms: ArmSummary[];
  verdict: (VerdictLine & { unit: string; noun: string })[];
  /** The runs' own quality warnings (page cache, file smaller than RAM …), once each. */
  warnings: string[];
  excluded: ExcludedRun[];
  /** Fewest valid runs in any arm. */
  validPerArm: number;
}

export const headlineKey = (metric: string, dims: Record<string, string>) =>
  `${metric}|${Object.entries(dims)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([k, v]) => `${k}=${v}`)
    .join(",")}`;

function isResult(r: unknown): r is NormalisedResult {
  return typeof r === "object" && r !== null && Array.isArray((r as NormalisedResult).measurements);
}

function flagTitles(flags: unknown): string[] {
  if (!Array.isArray(flags)) return [];
  return flags.map((f) => (typeof f === "object" && f !== null && typeof (f as { title?: unknown }).title === "string" ? (f as { title: string }).title : "flagged by a run check"));
}

/** Why a run does not count, or [] when it does (a queued or running run has no reasons yet). */
export function exclusionReasons(run: Pick<SummaryRun, "status" | "flags" | "round">, warmupRounds: number): string[] {
  if (run.status === "QUEUED" || run.status === "RUNNING") return [];
  const reasons: string[] = [];
  if ((run.round ?? 0) < warmupRounds) reasons.push("warm-up");
  if (run.status !== "SUCCEEDED") reasons.push(run.status.toLowerCase());
  reasons.push(...flagTitles(run.flags));
  return reasons;
}

export function summariseExperiment(opts: {
  probe: string;
  armLabels: readonly string[];
  runs: readonly SummaryRun[];
  /** 1 when round 0 is a warm-up (policy.warmup), else 0. */
  warmupRounds?: number;
  /** A FAILED or CANCELLED experiment gives no ratio at all: it ended for a reason the runs may share. */
  status?: string;
}): ExperimentSummary {
  const headlines = new Map<string, HeadlineKey>();
  const arms: ArmSummary[] = opts.armLabels.map((label) => ({ label, runIds: [], validRunIds: [], excluded: 0, median: null, cv: null, values: {} }));
  const warnings = new Set<string>();
  const excluded: ExcludedRun[] = [];
  for (const run of opts.runs) {
    const arm = arms[run.armIndex];
    if (!arm) continue;
    arm.runIds.push(run.id);
    const reasons = exclusionReasons(run, opts.warmupRounds ?? 0);
    if (reasons.length > 0) {
      excluded.push({ id: run.id, armIndex: run.armIndex, round: run.round ?? 0, reasons });
      arm.excluded++;
      continue;
    }
    if (run.status !== "SUCCEEDED" || !isResult(run.result)) continue;
    arm.validRunIds.push(run.id);
    for (const w of Array.isArray(run.warnings) ? run.warnings : []) if (typeof w === "string") warnings.add(w);
    for (const h of headlineValues(opts.probe, run.result, run.params) as HeadlineValue[]) {
      const key = headlineKey(h.metric, h.dims);
      if (!headlines.has(key)) headlines.set(key, { key, metric: h.metric, dims: h.dims, noun: h.noun, unit: h.unit, betterWhen: h.betterWhen, ...(h.verb ? { verb: h.verb } : {}) });
      (arm.values[key] ??= []).push(h.value);
    }
  }
  const keys = [...headlines.values()];
  const first = keys[0];
  for (const arm of arms) {
    if (!first) continue;
    const s = armSpread({ label: arm.label, values: arm.values[first.key] ?? [] });
    arm.median = s.median;
    arm.cv = s.cv;
  }
  const ended = opts.status === "FAILED" || opts.status === "CANCELLED";
  const lines = ended ? [] : keys.flatMap((h) =>
    verdict(
      h,
      arms.map((a) => ({ label: a.label, values: a.values[h.key] ?? [] })),
    ).map((l) => ({ ...l, unit: h.unit, noun: h.noun })),
  );
  const validPerArm = arms.length ? Math.min(...arms.map((a) => a.validRunIds.length)) : 0;
  return { headlines: keys, arms, verdict: lines, warnings: [...warnings], excluded, validPerArm };
}

/** Every arm × headline figure as one series, for the CV stop rule (the least stable one decides). */
export function stabilitySeries(summary: ExperimentSummary): { label: string; values: number[] }[] {
  return summary.arms.flatMap((a) => summary.headlines.map((h) => ({ label: `${a.label}, ${h.noun}`, values: a.values[h.key] ?? [] })));
}
