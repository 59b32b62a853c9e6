import type { Prisma } from "@prisma/client";
import { db } from "../../db";
import { log } from "../../log";
import { isRepeatAlert } from "../../trends/regression";
import { evaluateSeriesTrend, followedMetric, headlineChoices, loadSeriesRuns } from "./series-runs";

/** Runs read per evaluation beyond the two windows, for the invalid ones among them. */
const SLACK_RUNS = 50;
/** Earlier alerts of the series read for de-duplication: far more than can overlap 2N runs. */
const RECENT_ALERTS = 20;

export interface SeriesEvaluation {
  state: "collecting" | "regression" | "improvement" | "steady";
  /** The alert raised by this evaluation, if any. */
  alertId: string | null;
}

/**
 * Called when a run of the series ends: its last N valid runs against the N before, and at most
 * one new Alert when they differ (lib/trends/regression.ts), unless an alert of the same kind
 * already covers this step. Serialised on the series row (SELECT … FOR UPDATE), so two runs
 * ending together cannot both raise the alert. Sends nothing: webhooks are fanned out from the
 * alerts table by the upkeep.
 */
export async function evaluateSeries({ seriesId }: { seriesId: string }): Promise<SeriesEvaluation> {
  return db().$transaction(async (tx) => {
    const locked = await tx.$queryRaw<{ id: string }[]>`SELECT id FROM series WHERE id = ${seriesId}::uuid FOR UPDATE`;
    if (locked.length === 0) return { state: "collecting", alertId: null };
    const s = await tx.series.findUniqueOrThrow({ where: { id: seriesId }, select: { id: true, probe: true, metricKey: true, windowRuns: true, thresholdPct: true } });
    const runs = await loadSeriesRuns(s.id, s.probe, 2 * s.windowRuns + SLACK_RUNS, tx);
    const last = runs[runs.length - 1];
    if (last) await tx.series.update({ where: { id: s.id }, data: { lastRunAt: last.at } });
    const metric = followedMetric(s.metricKey, headlineChoices(runs));
    const e = evaluateSeriesTrend(s, runs, metric);
    if (!metric || !e.interval || (e.state !== "regression" && e.state !== "improvement")) return { state: e.state, alertId: null };
    const kind = e.state;
    const earlier = await tx.alert.findMany({ where: { seriesId: s.id }, orderBy: { createdAt: "desc" }, take: RECENT_ALERTS, select: { kind: true, recentRunIds: true } });
    const existing = earlier.map((a) => ({ kind: a.kind === "REGRESSION" ? ("regression" as const) : ("improvement" as const), recentRunIds: a.recentRunIds }));
    if (isRepeatAlert(existing, kind, e)) return { state: kind, alertId: null };
    const alert = await tx.alert.create({
      data: {
        seriesId: s.id,
        kind: kind === "regression" ? "REGRESSION" : "IMPROVEMENT",
        metricKey: metric.key,
        ratio: e.interval.ratio,
        ciLow: e.interval.low,
        ciHigh: e.interval.high,
        confidence: e.interval.confidence,
        baselineRunIds: e.baselineRunIds,
        recentRunIds: e.recentRunIds,
        changes: e.changes as unknown as Prisma.InputJsonValue,
        message: e.message ?? "",
      },
      select: { id: true },
    });
    return { state: kind, alertId: alert.id };
  });
}

/** For the paths that end runs: the run's own outcome stands even when the evaluation fails. */
export async function evaluateSeriesSafely(seriesId: string): Promise<void> {
  try {
    const r = await evaluateSeries({ seriesId });
    if (r.alertId) log().info(`series ${seriesId}: ${r.state} alert ${r.alertId}`, { seriesId, alertId: r.alertId });
  } catch (err) {
    log().error(`series ${seriesId}: could not evaluate: ${err instanceof Error ? err.message : String(err)}`, { seriesId });
  }
}
