import { db } from "../../db";
import type { SeriesDetail } from "../../api/schemas/series";
import { profileAnnotations, windowChanges } from "../../trends/profile-changes";
import { trendWindows } from "../../trends/regression";
import { windowVerdict } from "../../trends/window-verdict";
import { alertInclude, alertViews } from "../alerts/alert-view";
import { summaryOf } from "./list-series";
import { followedMetric, headlineChoices, loadSeriesRuns, trendRuns, validValue } from "./series-runs";

/** Alerts shown on a series page, newest first. */
const SERIES_ALERTS_LIMIT = 100;

/**
 * One series: its latest runs (at most SERIES_RUNS_LIMIT) as points of the followed figure, the
 * host-profile changes between them, its alerts, and the current windows' verdict.
 */
export async function getSeries({ id }: { id: string }): Promise<SeriesDetail | null> {
  const s = await db().series.findUnique({ where: { id }, include: { host: { select: { name: true } } } });
  if (!s) return null;
  const [runs, runCount, alertRows] = await Promise.all([
    loadSeriesRuns(s.id, s.probe),
    db().probeRun.count({ where: { seriesId: s.id, finishedAt: { not: null } } }),
    db().alert.findMany({ where: { seriesId: s.id }, orderBy: { createdAt: "desc" }, take: SERIES_ALERTS_LIMIT, include: alertInclude }),
  ]);
  const metrics = headlineChoices(runs);
  const metric = followedMetric(s.metricKey, metrics);
  const openAlerts = alertRows.filter((a) => a.acknowledgedAt === null).length;
  const summary = summaryOf(s, runs, { runs: runCount, openAlerts });
  const valid = trendRuns(runs, metric);
  const w = trendWindows(valid, s.windowRuns);
  const n = s.windowRuns;
  return {
    ...summary,
    params: (s.params && typeof s.params === "object" && !Array.isArray(s.params) ? s.params : {}) as Record<string, unknown>,
    metrics,
    points: runs.map((r) => ({
      runId: r.id,
      at: r.at.toISOString(),
      status: r.status,
      value: metric ? (r.values.get(metric.key) ?? null) : null,
      // A run of these probes is one measurement: no spread within it.
      low: null,
      high: null,
      valid: validValue(r, metric) !== null,
      flags: r.flags,
      notes: r.notes,
      scheduled: r.scheduled,
    })),
    annotations: profileAnnotations(runs.map((r) => ({ id: r.id, at: r.at.toISOString(), fields: r.fields }))),
    alerts: await alertViews(alertRows, new Map([[s.id, metrics]])),
    current:
      metric && w
        ? windowVerdict(
            metric,
            { label: `the ${n} runs before`, runIds: w.baseline.map((r) => r.id), values: w.baseline.map((r) => r.value) },
            { label: `the last ${n} runs`, runIds: w.recent.map((r) => r.id), values: w.recent.map((r) => r.value) },
            windowChanges(w.baseline.map((r) => r.fields ?? {}), w.recent.map((r) => r.fields ?? {})),
          )
        : null,
  };
}
