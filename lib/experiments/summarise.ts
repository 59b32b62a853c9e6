// From an experiment's runs to its answer: the headline figures of each run (the probe says
// which, probes/<tool>/headline.ts), grouped per arm, each arm's spread, and every arm against
// the baseline arm. Tool-agnostic: it only reads the catalog.
import { headlineValues, type HeadlineValue, type NormalisedResult } from "../../probes/catalog";
import { armSpread, verdict, type VerdictLine } from "./verdict";

export interface SummaryRun {
  id: string;
  armIndex: number;
  status: string;
  params: unknown;
  result: unknown;
  warnings?: unknown;
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
  /** Every successful run's value of each headline figure, by HeadlineKey.key. */
  values: Record<string, number[]>;
}

export interface ExperimentSummary {
  headlines: HeadlineKey[];
  arms: ArmSummary[];
  verdict: (VerdictLine & { unit: string; noun: string })[];
  /** The runs' own quality warnings (page cache, file smaller than RAM …), once each. */
  warnings: string[];
}

export const headlineKey = (metric: string, dims: Record<string, string>) =>
  `${metric}|${Object.entries(dims)
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([k, v]) => `${k}=${v}`)
    .join(",")}`;

function isResult(r: unknown): r is NormalisedResult {
  return typeof r === "object" && r !== null && Array.isArray((r as NormalisedResult).measurements);
}

export function summariseExperiment(opts: { probe: string; armLabels: readonly string[]; runs: readonly SummaryRun[] }): ExperimentSummary {
  const headlines = new Map<string, HeadlineKey>();
  const arms: ArmSummary[] = opts.armLabels.map((label) => ({ label, runIds: [], median: null, cv: null, values: {} }));
  const warnings = new Set<string>();
  for (const run of opts.runs) {
    const arm = arms[run.armIndex];
    if (!arm) continue;
    arm.runIds.push(run.id);
    if (run.status !== "SUCCEEDED" || !isResult(run.result)) continue;
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
  const lines = keys.flatMap((h) =>
    verdict(
      h,
      arms.map((a) => ({ label: a.label, values: a.values[h.key] ?? [] })),
    ).map((l) => ({ ...l, unit: h.unit, noun: h.noun })),
  );
  return { headlines: keys, arms, verdict: lines, warnings: [...warnings] };
}

/** Every arm × headline figure as one series, for the stop rule (the least stable one decides). */
export function stabilitySeries(summary: ExperimentSummary): { label: string; values: number[] }[] {
  return summary.arms.flatMap((a) => summary.headlines.map((h) => ({ label: `${a.label}, ${h.noun}`, values: a.values[h.key] ?? [] })));
}
