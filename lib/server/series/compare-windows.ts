import { db } from "../../db";
import { AppError } from "../../http/app-error";
import type { CompareWindowsInput, WindowVerdict } from "../../api/schemas/series";
import { windowChanges } from "../../trends/profile-changes";
import { windowVerdict } from "../../trends/window-verdict";
import { followedMetric, headlineChoices, seriesRunSelect, toSeriesRun, trendRuns, SERIES_RUNS_LIMIT } from "./series-runs";

const day = (d: Date) => d.toISOString().slice(0, 10);

/**
 * Two finish-time ranges of one series compared like two arms of an experiment (window a the
 * baseline), with the host-profile changes between them. Each window reads at most
 * SERIES_RUNS_LIMIT of its latest runs.
 */
export async function compareWindows({ id, a, b }: { id: string } & CompareWindowsInput): Promise<WindowVerdict> {
  for (const [name, w] of [["a", a], ["b", b]] as const) {
    if (w.from.getTime() > w.to.getTime()) throw new AppError("BAD_REQUEST", `${name}.from must not be after ${name}.to.`, { [`${name}.from`]: ["must not be after to"] });
  }
  const s = await db().series.findUnique({ where: { id }, select: { id: true, probe: true, metricKey: true } });
  if (!s) throw new AppError("NOT_FOUND", `No series ${id}.`);
  const read = (w: { from: Date; to: Date }) =>
    db().probeRun.findMany({
      where: { seriesId: s.id, finishedAt: { gte: w.from, lte: w.to } },
      orderBy: [{ finishedAt: "desc" }, { id: "desc" }],
      take: SERIES_RUNS_LIMIT,
      select: seriesRunSelect,
    });
  const [ra, rb] = await Promise.all([read(a), read(b)]);
  const runsA = ra.reverse().map((r) => toSeriesRun(s.probe, r));
  const runsB = rb.reverse().map((r) => toSeriesRun(s.probe, r));
  const metric = followedMetric(s.metricKey, headlineChoices([...runsA, ...runsB]));
  const va = trendRuns(runsA, metric);
  const vb = trendRuns(runsB, metric);
  const changes = windowChanges(va.map((r) => r.fields ?? {}), vb.map((r) => r.fields ?? {}));
  if (!metric) {
    return { baselineRunIds: [], recentRunIds: [], state: "collecting", ratio: null, ciLow: null, ciHigh: null, confidence: null, halfWidthPct: null, sentence: "Neither window has a valid run with a headline figure.", changes };
  }
  return windowVerdict(
    metric,
    { label: `the runs of ${day(a.from)}–${day(a.to)}`, runIds: va.map((r) => r.id), values: va.map((r) => r.value) },
    { label: `the runs of ${day(b.from)}–${day(b.to)}`, runIds: vb.map((r) => r.id), values: vb.map((r) => r.value) },
    changes,
  );
}
