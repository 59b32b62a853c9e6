import { headlineValues, type NormalisedResult } from "../../../probes/catalog";
import { db } from "../../db";
import { AppError } from "../../http/app-error";
import { getSweepView } from "../sweeps/get-sweep";
import { sweepCsv } from "../sweeps/sweep-csv";
import { experimentJson, getExperiment } from "./get-experiment";

const cell = (v: string | number | null) => {
  const s = v === null ? "" : String(v);
  // Quote fields with separators; a leading = + - @ is neutralised so a spreadsheet does not run it.
  const safe = /^[=+\-@]/.test(s) && !/^-?\d/.test(s) ? `'${s}` : s;
  return /[",\r\n]/.test(safe) ? `"${safe.replace(/"/g, '""')}"` : safe;
};

/** One row per run and headline figure, in display units, with why a run does not count; then the verdict lines; then the host. */
export async function experimentCsv(opts: { id: string }): Promise<string> {
  const v = await getExperiment({ id: opts.id });
  if (v.kind === "sweep") return sweepCsv(await sweepOrThrow(v.id), cell);
  const runs = await db().probeRun.findMany({ where: { experimentId: v.id }, select: { id: true, params: true, result: true, status: true }, orderBy: { createdAt: "asc" } });
  const rows: (string | number | null)[][] = [["arm", "round", "run", "status", "fs_type", "metric", "dims", "value", "unit", "excluded_because"]];
  for (const r of v.runs) {
    const raw = runs.find((x) => x.id === r.id);
    const values = raw?.result && r.status === "SUCCEEDED" ? headlineValues(v.probe, raw.result as unknown as NormalisedResult, raw.params) : [];
    const arm = v.arms[r.armIndex]?.label ?? "";
    const why = r.excludedBecause.join("; ") || null;
    if (values.length === 0) rows.push([arm, r.round + 1, r.id, r.status, r.fsType, null, null, null, null, why]);
    for (const h of values) rows.push([arm, r.round + 1, r.id, r.status, r.fsType, h.metric, Object.entries(h.dims).map(([k, x]) => `${k}=${x}`).join(" "), h.value, h.unit, why]);
  }
  rows.push([]);
  rows.push(["baseline", "arm", "metric", "dims", "state", "ratio", "ci_low", "ci_high", "confidence", "half_width_pct", "runs_needed", "valid_runs_baseline", "valid_runs_arm", "sentence"]);
  for (const l of v.summary.verdict) {
    const dims = Object.entries(l.dims).map(([k, x]) => `${k}=${x}`).join(" ");
    rows.push([l.baseline, l.arm, l.metric, dims, l.state, l.ratio, l.ciLow, l.ciHigh, l.confidence, l.halfWidthPct, l.runsNeeded, l.runs.baseline, l.runs.arm, l.sentence]);
  }
  // Last, so the first line stays the runs' header: where it ran, and whether that host is gone.
  rows.push([]);
  rows.push(["host", "host_removed"]);
  rows.push([v.hostName, v.hostRemoved ? "true" : "false"]);
  return rows.map((r) => r.map(cell).join(",")).join("\r\n") + "\r\n";
}

async function sweepOrThrow(id: string) {
  const sweep = await getSweepView(id);
  if (!sweep) throw new AppError("NOT_FOUND", `No sweep ${id}.`);
  return sweep;
}

/** An A/B experiment with its runs and verdict; a sweep as its SweepView. */
export async function experimentExportJson(opts: { id: string }) {
  const v = await getExperiment({ id: opts.id });
  if (v.kind === "sweep") return { kind: "sweep", ...(await sweepOrThrow(v.id)) };
  return experimentJson(v);
}
