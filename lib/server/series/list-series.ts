import { db } from "../../db";
import type { SeriesSummary } from "../../api/schemas/series";
import { evaluateSeriesTrend, followedMetric, headlineChoices, seriesRunSelect, seriesTitle, toSeriesRun, trendRuns, type SeriesRun } from "./series-runs";

/** Valid values drawn in a summary's sparkline. */
const SPARKLINE_RUNS = 20;
/** Runs read per series beyond its two windows, for the invalid ones among them. */
const SLACK_RUNS = 20;

type SeriesRow = Awaited<ReturnType<typeof readSeries>>[number];

function readSeries(hostId?: string) {
  return db().series.findMany({
    where: hostId ? { hostId } : {},
    orderBy: [{ lastRunAt: { sort: "desc", nulls: "last" } }, { createdAt: "desc" }],
    include: { host: { select: { name: true } } },
  });
}

/** Each series' latest runs: its two windows plus some slack, in one query. */
async function latestRuns(series: readonly SeriesRow[]): Promise<Map<string, SeriesRun[]>> {
  const out = new Map<string, SeriesRun[]>();
  if (series.length === 0) return out;
  const ids = series.map((s) => s.id);
  const picked = await db().$queryRaw<{ id: string }[]>`
    SELECT r.id FROM series s
    CROSS JOIN LATERAL (
      SELECT id FROM probe_runs WHERE series_id = s.id AND finished_at IS NOT NULL
      ORDER BY finished_at DESC LIMIT GREATEST(2 * s.window_runs, ${SPARKLINE_RUNS}) + ${SLACK_RUNS}
    ) r
    WHERE s.id = ANY(${ids}::uuid[])`;
  const rows = await db().probeRun.findMany({ where: { id: { in: picked.map((p) => p.id) } }, orderBy: [{ finishedAt: "asc" }, { id: "asc" }], select: { ...seriesRunSelect, seriesId: true } });
  const probeOf = new Map(series.map((s) => [s.id, s.probe]));
  for (const r of rows) {
    if (!r.seriesId) continue;
    const list = out.get(r.seriesId) ?? [];
    list.push(toSeriesRun(probeOf.get(r.seriesId) ?? "", r));
    out.set(r.seriesId, list);
  }
  return out;
}

export function summaryOf(s: SeriesRow, runs: readonly SeriesRun[], counts: { runs: number; openAlerts: number }): SeriesSummary {
  const metric = followedMetric(s.metricKey, headlineChoices(runs));
  const valid = trendRuns(runs, metric);
  const trend = evaluateSeriesTrend(s, runs, metric);
  const last = runs[runs.length - 1];
  return {
    id: s.id,
    title: seriesTitle(s),
    hostId: s.hostId,
    hostName: s.host?.name ?? null,
    probe: s.probe,
    preset: s.preset,
    target: s.target,
    metric,
    runs: counts.runs,
    lastRunAt: (s.lastRunAt ?? last?.at ?? null)?.toISOString() ?? null,
    latest: valid[valid.length - 1]?.value ?? null,
    recent: valid.slice(-SPARKLINE_RUNS).map((r) => r.value),
    trend: trend.state,
    openAlerts: counts.openAlerts,
    windowRuns: s.windowRuns,
    thresholdPct: s.thresholdPct,
  };
}

/** Every series (of one host), latest first, with its trend over its two windows. */
export async function listSeries({ hostId }: { hostId?: string } = {}): Promise<SeriesSummary[]> {
  const series = await readSeries(hostId);
  if (series.length === 0) return [];
  const ids = series.map((s) => s.id);
  const [runs, runCounts, alertCounts] = await Promise.all([
    latestRuns(series),
    db().probeRun.groupBy({ by: ["seriesId"], where: { seriesId: { in: ids }, finishedAt: { not: null } }, _count: { _all: true } }),
    db().alert.groupBy({ by: ["seriesId"], where: { seriesId: { in: ids }, acknowledgedAt: null }, _count: { _all: true } }),
  ]);
  const runsOf = new Map(runCounts.map((c) => [c.seriesId, c._count._all]));
  const alertsOf = new Map(alertCounts.map((c) => [c.seriesId, c._count._all]));
  return series.map((s) => summaryOf(s, runs.get(s.id) ?? [], { runs: runsOf.get(s.id) ?? 0, openAlerts: alertsOf.get(s.id) ?? 0 }));
}
