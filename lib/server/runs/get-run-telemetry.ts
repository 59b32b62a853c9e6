import { telemetrySampleSchema, type TelemetrySampleWire } from "../../../probes/protocol/schemas";
import { db } from "../../db";
import { pgPool } from "../../pg-pool";
import { AppError } from "../../http/app-error";

/** The units of every field, in the document itself (they follow sysstat's and iostat's; see probes/telemetry/types.ts). */
export const TELEMETRY_UNITS = {
  t: "s since the probe started",
  cpu: "% of all CPUs",
  device: { rs: "requests/s", ws: "requests/s", rkBs: "KiB/s", wkBs: "KiB/s", rAwait: "ms", wAwait: "ms", aquSz: "requests", util: "%" },
  memory: "KiB",
  paging: { pgpgin: "KiB/s", pgpgout: "KiB/s", majflt: "faults/s", pgscank: "pages/s", pgscand: "pages/s", pgsteal: "pages/s" },
  writeback: { dirtiedKBs: "KiB/s", writtenKBs: "KiB/s", limitKb: "KiB", backgroundLimitKb: "KiB" },
  numa: "KiB free per NUMA node",
} as const;

export interface TelemetryPoint {
  t: number;
  cpu: TelemetrySampleWire["cpu"];
  device: TelemetrySampleWire["device"];
  memory: TelemetrySampleWire["memory"];
  paging: TelemetrySampleWire["paging"];
  writeback: TelemetrySampleWire["writeback"];
  numa?: Record<string, number>;
}

export interface RunTelemetryDoc {
  intervalSec: number;
  units: typeof TELEMETRY_UNITS;
  samples: TelemetryPoint[];
}

/** The API's shape of a stored sample (numaFree is published as `numa`); rows that no longer parse are skipped. */
export function toPoint(raw: unknown): TelemetryPoint | null {
  const p = telemetrySampleSchema.safeParse(raw);
  if (!p.success) return null;
  const { numaFree, ...rest } = p.data;
  return numaFree ? { ...rest, numa: numaFree } : rest;
}

/** Samples after t (SSE replay and live following; a hot path, so plain pg). */
export async function telemetryAfter(runId: string, afterT: number, limit = 500): Promise<TelemetryPoint[]> {
  const { rows } = await pgPool().query<{ sample: unknown }>(
    "SELECT sample FROM run_telemetry WHERE run_id = $1::uuid AND t > $2 ORDER BY t LIMIT $3",
    [runId, afterT, limit],
  );
  return rows.map((r) => toPoint(r.sample)).filter((p): p is TelemetryPoint => p !== null);
}

/** Every sample of a run, in time order. */
export async function readRunTelemetry(runId: string): Promise<TelemetryPoint[]> {
  const rows = await db().runTelemetry.findMany({ where: { runId }, orderBy: { t: "asc" }, select: { sample: true } });
  return rows.map((r) => toPoint(r.sample)).filter((p): p is TelemetryPoint => p !== null);
}

/** GET /api/runs/:id/telemetry: the samples with their interval and units. */
export async function getRunTelemetry(opts: { runId: string }): Promise<RunTelemetryDoc> {
  const run = await db().probeRun.findUnique({ where: { id: opts.runId }, select: { id: true } });
  if (!run) throw new AppError("NOT_FOUND", `No run ${opts.runId}.`);
  return { intervalSec: 1, units: TELEMETRY_UNITS, samples: await readRunTelemetry(opts.runId) };
}
