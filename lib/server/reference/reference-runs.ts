import crypto from "node:crypto";
import type { Dataset } from "../../../content/schema";
import { getProbe } from "../../../probes/catalog";
import type { Measurement, NormalisedResult, Tool } from "../../../probes/core/types";

export interface ReferenceRun {
  /** Stable id derived from dataset and series, so seeding is idempotent. */
  id: string;
  datasetId: string;
  guide: string;
  probe: Tool;
  hostLabel: string;
  notes: string;
  fsType: string | null;
  medium: "memory" | "ssd" | "disk" | null;
  params: Record<string, unknown>;
  profile: Record<string, unknown>;
  result: NormalisedResult;
}

function stableUuid(key: string): string {
  const h = crypto.createHash("sha256").update(`probebook-reference:${key}`).digest("hex");
  // Version 4 layout bits, so it is a valid UUID for the uuid column.
  return `${h.slice(0, 8)}-${h.slice(8, 12)}-4${h.slice(13, 16)}-a${h.slice(17, 20)}-${h.slice(20, 32)}`;
}

const MEDIUM: Record<string, "memory" | "ssd" | "disk"> = { disk: "disk", flash: "ssd", ssd: "ssd", memory: "memory" };

/**
 * The articles' probe-shaped tables as runs with origin REFERENCE: one run per chart series
 * (per file system for a table of operations, per medium and direction for throughput lists), with a
 * synthetic profile from the article so compare treats them like any other run. What a row
 * means is the probe's `reference` mapping (probes/<tool>/reference.ts).
 */
export function referenceRunsFromDatasets(datasets: Dataset[]): ReferenceRun[] {
  const runs: ReferenceRun[] = [];
  for (const ds of datasets) {
    const ref = ds.reference;
    const probe = ref ? getProbe(ref.probe) : undefined;
    const mapping = probe?.reference;
    if (!ref?.seriesToRuns || !probe || !mapping) continue;
    const seriesKey = ds.chart.series;
    const groups = new Map<string, Dataset["rows"]>();
    for (const row of ds.rows) {
      // A probe that measures one operation per run gets one run per operation of a series.
      const parts = [seriesKey ? String(row[seriesKey]) : "all"];
      if (mapping.runPerOperation && row.operation !== undefined) parts.push(String(row.operation));
      const key = parts.join(" · ");
      groups.set(key, [...(groups.get(key) ?? []), row]);
    }
    for (const [key, rows] of groups) {
      const first = rows[0]!;
      const fsType = seriesKey === "fs" ? String(first.fs) : null;
      const medium = MEDIUM[String(first.medium ?? "")] ?? ref.medium ?? null;
      const op = String(first.operation ?? "");
      const measurements: Measurement[] = [];
      for (const row of rows) {
        const m = typeof row.value === "number" ? mapping.measurement(row, row.value, { fileKiB: ref.fileKiB }) : null;
        if (m) measurements.push(m);
      }
      runs.push({
        id: stableUuid(`${ds.id}:${key}`),
        datasetId: ds.id,
        guide: ds.guide,
        probe: probe.id,
        hostLabel: `${ds.source} · ${ref.year} · ${key}`,
        notes: `Published figures from ${ds.source} (${ds.title}). ${ref.host}.`,
        fsType,
        medium,
        params: mapping.params ? mapping.params(op, { preset: ref.preset, writePreset: ref.writePreset }) : ref.preset ? { preset: ref.preset } : {},
        profile: {
          reference: { dataset: ds.id, guide: ds.guide, year: ref.year, host: ref.host },
          target: { fsType, medium, model: ref.host },
        },
        result: { tool: probe.id, toolVersion: null, measurements, warnings: [] },
      });
    }
  }
  return runs;
}
