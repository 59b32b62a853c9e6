// What every series reader shares: a series' finished runs (bounded), their headline figures, the
// figure the series follows, which runs count, and the trend over them. One place, so the page,
// the API, the CLI and the alert evaluation read the same numbers.
import type { Prisma } from "@prisma/client";
import { getProbe, headlineValues, type NormalisedResult } from "../../../probes/catalog";
import { headlineKey } from "../../experiments/summarise";
import { db } from "../../db";
import type { HeadlineChoice } from "../../api/schemas/series";
import { profileFields, type ProfileFields } from "../../trends/profile-changes";
import { evaluateTrend, type TrendEvaluation, type TrendRun } from "../../trends/regression";

/** A series page reads at most this many of its latest runs. */
export const SERIES_RUNS_LIMIT = 500;

export const seriesRunSelect = {
  id: true,
  status: true,
  finishedAt: true,
  params: true,
  result: true,
  profile: true,
  flags: true,
  notes: true,
  scheduleId: true,
} satisfies Prisma.ProbeRunSelect;

export type SeriesRunRow = Prisma.ProbeRunGetPayload<{ select: typeof seriesRunSelect }>;

export interface SeriesRun {
  id: string;
  at: Date;
  status: string;
  flags: string[];
  notes: string | null;
  scheduled: boolean;
  /** Every headline figure of the run by HeadlineKey.key, in display units. */
  values: Map<string, number>;
  choices: HeadlineChoice[];
  fields: ProfileFields;
  /** SUCCEEDED with no flag from the run checks. */
  succeededClean: boolean;
}

function isResult(r: unknown): r is NormalisedResult {
  return typeof r === "object" && r !== null && Array.isArray((r as NormalisedResult).measurements);
}

function flagTitles(flags: unknown): string[] {
  if (!Array.isArray(flags)) return [];
  return flags.map((f) => (typeof f === "object" && f !== null && typeof (f as { title?: unknown }).title === "string" ? (f as { title: string }).title : "flagged by a run check"));
}

export function toSeriesRun(probe: string, row: SeriesRunRow): SeriesRun {
  const values = new Map<string, number>();
  const choices: HeadlineChoice[] = [];
  if (row.status === "SUCCEEDED" && isResult(row.result)) {
    for (const h of headlineValues(probe, row.result, row.params)) {
      const key = headlineKey(h.metric, h.dims);
      if (values.has(key)) continue;
      values.set(key, h.value);
      choices.push({ key, noun: h.noun, unit: h.unit, betterWhen: h.betterWhen });
    }
  }
  const flags = flagTitles(row.flags);
  return {
    id: row.id,
    at: row.finishedAt ?? new Date(0),
    status: row.status,
    flags,
    notes: row.notes,
    scheduled: row.scheduleId !== null,
    values,
    choices,
    fields: profileFields(row.profile, row.result),
    succeededClean: row.status === "SUCCEEDED" && flags.length === 0,
  };
}

/** The series' latest finished runs, oldest first. */
export async function loadSeriesRuns(seriesId: string, probe: string, limit = SERIES_RUNS_LIMIT, client: Prisma.TransactionClient = db()): Promise<SeriesRun[]> {
  const rows = await client.probeRun.findMany({
    where: { seriesId, finishedAt: { not: null } },
    orderBy: [{ finishedAt: "desc" }, { id: "desc" }],
    take: limit,
    select: seriesRunSelect,
  });
  return rows.reverse().map((r) => toSeriesRun(probe, r));
}

/** Every headline figure the runs have, in the order they first appear. */
export function headlineChoices(runs: readonly SeriesRun[]): HeadlineChoice[] {
  const seen = new Map<string, HeadlineChoice>();
  for (const r of runs) for (const c of r.choices) if (!seen.has(c.key)) seen.set(c.key, c);
  return [...seen.values()];
}

/** The figure the series follows: its chosen key when the runs have it, else their first figure. */
export function followedMetric(metricKey: string | null, choices: readonly HeadlineChoice[]): HeadlineChoice | null {
  return choices.find((c) => c.key === metricKey) ?? choices[0] ?? null;
}

/** A run's value of the followed figure, when it is a measurement that counts. */
export function validValue(run: SeriesRun, metric: HeadlineChoice | null): number | null {
  if (!metric || !run.succeededClean) return null;
  const v = run.values.get(metric.key);
  return v !== undefined && v > 0 && Number.isFinite(v) ? v : null;
}

/** The valid runs of the followed figure, oldest first, as the regression rule takes them. */
export function trendRuns(runs: readonly SeriesRun[], metric: HeadlineChoice | null): TrendRun[] {
  return runs.flatMap((r) => {
    const value = validValue(r, metric);
    return value === null ? [] : [{ id: r.id, value, fields: r.fields }];
  });
}

export function evaluateSeriesTrend(series: { windowRuns: number; thresholdPct: number }, runs: readonly SeriesRun[], metric: HeadlineChoice | null): TrendEvaluation {
  if (!metric) return { state: "collecting", baselineRunIds: [], recentRunIds: [], interval: null, changes: [], message: null };
  return evaluateTrend({ runs: trendRuns(runs, metric), windowRuns: series.windowRuns, thresholdPct: series.thresholdPct, betterWhen: metric.betterWhen, noun: metric.noun });
}

/** "dd write-1g on /srv", "fio (custom parameters) on /data". */
export function seriesTitle(s: { probe: string; preset: string | null; target: string | null }): string {
  const probe = getProbe(s.probe)?.id ?? s.probe;
  const what = s.preset ? `${probe} ${s.preset}` : `${probe} (custom parameters)`;
  return s.target ? `${what} on ${s.target}` : what;
}
