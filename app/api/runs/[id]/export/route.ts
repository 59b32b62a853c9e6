import { runsApi } from "@/lib/api/runs";
import { attachment, measurementsCsv } from "@/lib/compare/csv";
import { loadCompareRuns } from "@/lib/server/comparisons/load-runs";
import { getRun } from "@/lib/server/runs/get-run";
import { getRunTelemetry } from "@/lib/server/runs/get-run-telemetry";
import { checksCsvRows, telemetryCsvRows } from "@/lib/server/runs/telemetry-export";
import { handle } from "../../../handle";

export const dynamic = "force-dynamic";

/**
 * One run as CSV (one row per measurement, then one per telemetry field and second) or JSON (the
 * run with its label, profile, result and telemetry document).
 */
export const GET = handle(runsApi.export, async ({ params: { id }, query }) => {
  const run = await getRun({ id });
  const [compareRun] = (await loadCompareRuns([id])).runs;
  const label = compareRun?.label ?? run.id;
  const name = `probebook-${run.probe}-${id.slice(0, 8)}`;
  const telemetry = await getRunTelemetry({ runId: id });
  if (query.format === "csv") {
    const text = measurementsCsv([{ label, result: compareRun?.result ?? null }]) + checksCsvRows(label, run.flags) + telemetryCsvRows(label, telemetry.samples);
    return { status: 200, type: "text/csv", text, headers: { "content-disposition": attachment(`${name}.csv`) } };
  }
  return { status: 200, json: { label, ...run, telemetry }, indent: true, headers: { "content-disposition": attachment(`${name}.json`) } };
});
