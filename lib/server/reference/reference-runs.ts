import crypto from "node:crypto";
import type { Dataset } from "../../../content/schema";
import { resolvePreset } from "../../../probes/catalog";
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
 * What a fio reference run measured, as parameters: the preset that re-runs it (the write preset
 * for write rows) and that preset's method (rw, block size, engine, depth, jobs, direct), so the
 * compare page's "what differs" shows only what a host's run changed (size, runtime, target).
 * File size and runtime are left out: the article's were its own (117 GB, 381 MB per test).
 */
function fioParams(ref: NonNullable<Dataset["reference"]>, operation: string): Record<string, unknown> {
  const id = /write/i.test(operation) ? (ref.writePreset ?? ref.preset) : ref.preset;
  const preset = id ? resolvePreset(id) : undefined;
  if (!id || !preset) return {};
  const { sizeMiB: _size, runtimeSec: _runtime, ...method } = preset.params as Record<string, unknown>;
  return { preset: id, ...method };
}

function measurementsFor(ds: Dataset, rows: Dataset["rows"]): Measurement[] {
  const ref = ds.reference!;
  const out: Measurement[] = [];
  for (const row of rows) {
    const value = row.value;
    if (typeof value !== "number") continue;
    if (ref.probe === "iozone") {
      // iozone's "KB" are 1024 bytes: the published KB/s are KiB/s.
      out.push({ metric: String(row.operation), value, unit: "KiB/s", dims: { file_kib: ref.fileKiB ?? 0, record_kib: Number(row.record_kb) } });
    } else if (ref.probe === "dd") {
      out.push({ metric: "throughput", value: value * 1e6, unit: "B/s", dims: {} });
    } else if (ref.probe === "fio") {
      const direction = /write/i.test(String(row.operation)) ? "write" : "read";
      out.push({ metric: "bw", value: value * 1e6, unit: "B/s", dims: { job: String(row.operation), direction } });
    }
  }
  return out;
}

/**
 * The articles' probe-shaped tables as runs with origin REFERENCE: one run per chart series
 * (per file system for the IOzone table, per medium and direction for throughput lists), with a
 * synthetic profile from the article so compare treats them like any other run.
 */
export function referenceRunsFromDatasets(datasets: Dataset[]): ReferenceRun[] {
  const runs: ReferenceRun[] = [];
  for (const ds of datasets) {
    const ref = ds.reference;
    if (!ref?.seriesToRuns || !["iozone", "dd", "fio"].includes(ref.probe)) continue;
    const probe = ref.probe as Tool;
    const seriesKey = ds.chart.series;
    const groups = new Map<string, Dataset["rows"]>();
    for (const row of ds.rows) {
      // dd and fio results carry one direction each, so read and write become separate runs.
      const parts = [seriesKey ? String(row[seriesKey]) : "all"];
      if (probe !== "iozone" && row.operation !== undefined) parts.push(String(row.operation));
      const key = parts.join(" · ");
      groups.set(key, [...(groups.get(key) ?? []), row]);
    }
    for (const [key, rows] of groups) {
      const first = rows[0]!;
      const fsType = probe === "iozone" && seriesKey === "fs" ? String(first.fs) : null;
      const medium = MEDIUM[String(first.medium ?? "")] ?? (probe === "iozone" ? "ssd" : null);
      const op = String(first.operation ?? "");
      runs.push({
        id: stableUuid(`${ds.id}:${key}`),
        datasetId: ds.id,
        guide: ds.guide,
        probe,
        hostLabel: `${ds.source} · ${ref.year} · ${key}`,
        notes: `Published figures from ${ds.source} (${ds.title}). ${ref.host}.`,
        fsType,
        medium,
        params:
          probe === "dd"
            ? { mode: /write/i.test(op) ? "write" : "read" }
            : probe === "fio"
              ? fioParams(ref, op)
              : ref.preset
                ? { preset: ref.preset }
                : {},
        profile: {
          reference: { dataset: ds.id, guide: ds.guide, year: ref.year, host: ref.host },
          target: { fsType, medium, model: ref.host },
        },
        result: { tool: probe, toolVersion: null, measurements: measurementsFor(ds, rows), warnings: [] },
      });
    }
  }
  return runs;
}
