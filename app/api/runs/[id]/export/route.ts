import { requireActor } from "@/lib/auth/actor";
import { attachment, measurementsCsv } from "@/lib/compare/csv";
import { AppError } from "@/lib/http/app-error";
import { route } from "@/lib/http/handle-route";
import { uuidParam } from "@/lib/http/params";
import { exportFormatQuerySchema } from "@/lib/http/query-schemas";
import { loadCompareRuns } from "@/lib/server/comparisons/load-runs";
import { getRun } from "@/lib/server/runs/get-run";
import { getRunTelemetry } from "@/lib/server/runs/get-run-telemetry";
import { checksCsvRows, telemetryCsvRows } from "@/lib/server/runs/telemetry-export";

export const dynamic = "force-dynamic";

/**
 * Signed in: one run as CSV (one row per measurement, then one per telemetry field and second) or
 * JSON (the run with its label, profile, result and telemetry document).
 */
export const GET = route(async (req: Request, ctx: { params: Promise<{ id: string }> }) => {
  await requireActor("VIEWER");
  const id = uuidParam((await ctx.params).id, "run");
  const format = exportFormatQuerySchema.shape.format.safeParse(new URL(req.url).searchParams.get("format") ?? undefined);
  if (!format.success) throw new AppError("BAD_REQUEST", "format must be csv or json.", { format: ["Use csv or json."] });
  const run = await getRun(id);
  const [compareRun] = (await loadCompareRuns([id])).runs;
  const label = compareRun?.label ?? run.id;
  const name = `probebook-${run.probe}-${id.slice(0, 8)}`;
  const telemetry = await getRunTelemetry({ runId: id });
  if (format.data === "csv") {
    return new Response(measurementsCsv([{ label, result: compareRun?.result ?? null }]) + checksCsvRows(label, run.flags) + telemetryCsvRows(label, telemetry.samples), {
      headers: { "content-type": "text/csv; charset=utf-8", "content-disposition": attachment(`${name}.csv`) },
    });
  }
  return new Response(JSON.stringify({ label, ...run, telemetry }, null, 2), {
    headers: { "content-type": "application/json; charset=utf-8", "content-disposition": attachment(`${name}.json`) },
  });
});
