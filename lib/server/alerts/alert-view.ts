// An Alert row as the API and the pages show it: with its series' title and host, and the noun
// and unit of the figure it is about (read from the series' latest succeeded run: the alert
// stores only the figure's key, and the probe's headline says what it is called).
import type { Alert, Prisma } from "@prisma/client";
import { db } from "../../db";
import type { AlertView, HeadlineChoice, ProfileChange } from "../../api/schemas/series";
import { seriesRunSelect, seriesTitle, toSeriesRun } from "../series/series-runs";

export const alertInclude = {
  series: { select: { id: true, probe: true, preset: true, target: true, hostId: true, host: { select: { name: true } } } },
} satisfies Prisma.AlertInclude;

export type AlertRow = Alert & Prisma.AlertGetPayload<{ include: typeof alertInclude }>;

function readChanges(json: unknown): ProfileChange[] {
  if (!Array.isArray(json)) return [];
  return json.flatMap((c) => {
    if (!c || typeof c !== "object") return [];
    const o = c as Record<string, unknown>;
    const text = (v: unknown) => (typeof v === "string" ? v : null);
    return typeof o.field === "string" && typeof o.label === "string" ? [{ field: o.field, label: o.label, from: text(o.from), to: text(o.to) }] : [];
  });
}

/** The headline choices of each series, from its latest succeeded run (one query). */
async function choicesBySeries(seriesIds: string[]): Promise<Map<string, HeadlineChoice[]>> {
  const out = new Map<string, HeadlineChoice[]>();
  if (seriesIds.length === 0) return out;
  const latest = await db().$queryRaw<{ id: string }[]>`
    SELECT DISTINCT ON (series_id) id FROM probe_runs
    WHERE series_id = ANY(${seriesIds}::uuid[]) AND status = 'SUCCEEDED' AND result IS NOT NULL
    ORDER BY series_id, finished_at DESC NULLS LAST`;
  const rows = await db().probeRun.findMany({ where: { id: { in: latest.map((r) => r.id) } }, select: { ...seriesRunSelect, seriesId: true, probe: true } });
  for (const r of rows) if (r.seriesId) out.set(r.seriesId, toSeriesRun(r.probe, r).choices);
  return out;
}

export function alertView(a: AlertRow, choice: HeadlineChoice | undefined): AlertView {
  return {
    id: a.id,
    seriesId: a.seriesId,
    seriesTitle: seriesTitle(a.series),
    hostId: a.series.hostId,
    hostName: a.series.host?.name ?? null,
    kind: a.kind === "REGRESSION" ? "regression" : "improvement",
    metricKey: a.metricKey,
    noun: choice?.noun ?? a.metricKey.split("|")[0] ?? a.metricKey,
    unit: choice?.unit ?? "",
    ratio: a.ratio,
    ciLow: a.ciLow,
    ciHigh: a.ciHigh,
    confidence: a.confidence,
    baselineRunIds: a.baselineRunIds,
    recentRunIds: a.recentRunIds,
    changes: readChanges(a.changes),
    message: a.message,
    createdAt: a.createdAt.toISOString(),
    acknowledgedAt: a.acknowledgedAt?.toISOString() ?? null,
  };
}

/** Rows → views, with the noun and unit of each alert's figure. */
export async function alertViews(rows: readonly AlertRow[], known?: Map<string, HeadlineChoice[]>): Promise<AlertView[]> {
  const missing = [...new Set(rows.map((r) => r.seriesId))].filter((id) => !known?.has(id));
  const choices = new Map([...(known ?? []), ...(await choicesBySeries(missing))]);
  return rows.map((a) => alertView(a, choices.get(a.seriesId)?.find((c) => c.key === a.metricKey)));
}
