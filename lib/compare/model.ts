// Builds what the compare page draws from a list of runs: series (folded repeats), one section per
// probe with its charts and value table, "what differs", and repeat-variation warnings. Pure and
// deterministic: the compare page (from the database) and a shared comparison (from its
// snapshot) call it with the same CompareRuns and get the same picture. What a probe's section
// shows comes from the probe (probes/<tool>/view.ts); here repeats are summarised.
import { getProbe, probeIds, type ChartRowDraft, type SectionDraft, type SeriesValues, type ViewSeries } from "../../probes/catalog";
import { whatDiffers } from "./differs";
import { foldRuns, pairSides, setupKey } from "./fold";
import { seriesLabel, uniqueLabels } from "./label";
import { compactStat, CV_WARN_PERCENT, summarise } from "./stats";
import type { ChartRow, CompareRun, ComparisonModel, CvWarning, SectionModel, SeriesInfo, Stat } from "./types";

export interface BuildOptions {
  /** Fold repeats (and runs of one configuration) into median series. */
  fold: boolean;
}

interface Series {
  info: SeriesInfo;
  runs: CompareRun[];
}

function statsOf(values: SeriesValues): Record<string, Stat> {
  const out: Record<string, Stat> = {};
  for (const [series, list] of Object.entries(values)) if (list.length > 0) out[series] = compactStat(summarise(list));
  return out;
}

function targetDevice(run: CompareRun): string | null {
  const t = run.profile?.target;
  const d = t && typeof t === "object" ? (t as Record<string, unknown>).device : null;
  return typeof d === "string" ? d : null;
}

/** A probe's section draft with every point's repeats summarised (median, min–max, CV). */
function summariseSection(probe: SectionModel["probe"], keys: string[], draft: SectionDraft): SectionModel {
  const rowStats = (r: ChartRowDraft): ChartRow => ({ x: r.x, xLabel: r.xLabel, stats: statsOf(r.values) });
  return {
    ...draft,
    probe,
    seriesKeys: keys,
    charts: draft.charts.map((c) => ({ ...c, rows: c.rows.map(rowStats) })),
    table: {
      caption: draft.table.caption,
      rows: draft.table.rows.map(({ values, ...row }) => ({ ...row, cells: statsOf(values) })),
    },
  };
}

function section(probe: SectionModel["probe"], series: Series[]): SectionModel {
  const viewSeries: ViewSeries[] = series.map((s) => ({
    key: s.info.key,
    label: s.info.label,
    runs: s.runs.map((r) => ({ params: r.params, result: r.result, targetDevice: targetDevice(r) })),
  }));
  return summariseSection(probe, viewSeries.map((s) => s.key), getProbe(probe).view.compareSection(viewSeries));
}


function reasonSkipped(run: CompareRun): string | null {
  if (!run.result) return run.status === "SUCCEEDED" ? "no parsed result" : `no result (${run.status.toLowerCase()})`;
  if (run.result.tool !== run.probe) return `result is ${run.result.tool} output`;
  if (run.result.measurements.length === 0) return "no measurements";
  return null;
}

/**
 * "3 writes, 3 reads" for a series holding every side of a probe that measures one side per run
 * (write and read; "" for one of each); undefined (the default "n runs") otherwise.
 */
function countText(runs: readonly CompareRun[]): string | undefined {
  const sides = runs[0] ? getProbe(runs[0].probe)?.view.sides : undefined;
  if (!sides) return undefined;
  const of = runs.map((r) => sides.sideOf(r.params));
  const counts = sides.sides.map((side) => ({ side, n: of.filter((x) => x === side).length }));
  if (counts.some((c) => c.n === 0)) return undefined;
  if (counts.every((c) => c.n === 1)) return "";
  return counts.map((c) => `${c.n} ${c.side}${c.n === 1 ? "" : "s"}`).join(", ");
}

/** The side and setup of a run whose probe measures one side per run, for pairing; null otherwise. */
function sideOfRun(run: CompareRun): { side: string; setup: string } | null {
  const view = getProbe(run.probe)?.view;
  const side = view?.sides?.sideOf(run.params) ?? null;
  if (side === null || Object.keys(run.params).length === 0) return null;
  return { side, setup: setupKey(run, view?.notSetupParams ?? []) };
}

export function buildComparison(runs: readonly CompareRun[], opts: BuildOptions): ComparisonModel {
  const skipped: ComparisonModel["skipped"] = [];
  const drawable: CompareRun[] = [];
  for (const r of runs) {
    const why = reasonSkipped(r);
    if (why) skipped.push({ id: r.id, label: r.label, reason: why });
    else drawable.push(r);
  }
  const folded = foldRuns(drawable, opts.fold);
  const groups = opts.fold ? pairSides(folded, sideOfRun) : folded;
  const labels = uniqueLabels(groups.map((g) => seriesLabel(g, countText(g))));
  const series: Series[] = groups.map((g, i) => ({
    runs: g,
    info: { key: `s${i}`, label: labels[i]!, probe: g[0]!.probe, runIds: g.map((r) => r.id), runLabels: g.map((r) => r.label), index: i, maxCv: null },
  }));
  const sections: SectionModel[] = [];
  for (const probe of probeIds) {
    const of = series.filter((s) => s.info.probe === probe);
    if (of.length === 0) continue;
    sections.push(section(probe, of));
  }
  const cvWarnings: CvWarning[] = [];
  for (const s of series) {
    if (s.runs.length < 2) continue;
    let count = 0;
    let total = 0;
    let worst: CvWarning["worst"] | null = null;
    for (const sec of sections) {
      const groupLabel = (id: string | undefined) => sec.groups?.find((g) => g.id === id)?.label;
      for (const row of sec.table.rows) {
        if (row.secondary) continue;
        const cv = row.cells[s.info.key]?.cv;
        if (cv === null || cv === undefined) continue;
        total++;
        s.info.maxCv = Math.max(s.info.maxCv ?? 0, cv);
        if (cv > CV_WARN_PERCENT) {
          count++;
          if (!worst || cv > worst.cv) worst = { what: `${row.metric}${row.dims ? ` (${row.dims}${row.group && groupLabel(row.group) ? `, ${groupLabel(row.group)}` : ""})` : ""}`, cv };
        }
      }
    }
    if (worst) cvWarnings.push({ seriesKey: s.info.key, label: s.info.label, count, total, worst });
  }
  return {
    series: series.map((s) => s.info),
    sections,
    differs: whatDiffers(series.map((s) => ({ key: s.info.key, label: s.info.label, runs: s.runs }))),
    cvWarnings,
    skipped,
    flagged: runs.filter((r) => (r.flags?.length ?? 0) > 0).map((r) => ({ id: r.id, label: r.label, flags: r.flags ?? [] })),
    folded: opts.fold,
  };
}
