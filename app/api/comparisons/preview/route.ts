import { requireActor } from "@/lib/auth/actor";
import { attachment, measurementsCsv } from "@/lib/compare/csv";
import { parseRunIds } from "@/lib/compare/run-ids";
import { AppError } from "@/lib/http/app-error";
import { route } from "@/lib/http/handle-route";
import { exportFormatQuerySchema } from "@/lib/http/query-schemas";
import { comparisonJson } from "@/lib/server/comparisons/get-comparison";
import { loadCompareRuns } from "@/lib/server/comparisons/load-runs";

export const dynamic = "force-dynamic";

/** Signed in: the runs of /compare?runs=… as CSV (one row per measurement) or JSON, not frozen. */
export const GET = route(async (req: Request) => {
  await requireActor("VIEWER");
  const url = new URL(req.url);
  const format = exportFormatQuerySchema.shape.format.safeParse(url.searchParams.get("format") ?? undefined);
  if (!format.success) throw new AppError("BAD_REQUEST", "format must be csv or json.", { format: ["Use csv or json."] });
  const parsed = parseRunIds(url.searchParams.getAll("runs"));
  if (parsed.invalid.length > 0) throw new AppError("BAD_REQUEST", `Not run ids: ${parsed.invalid.join(", ")}.`, { runs: ["Give run ids separated by commas."] });
  if (parsed.ids.length === 0) throw new AppError("BAD_REQUEST", "Give runs=<id>,<id>,… to export.", { runs: ["At least one run id."] });
  if (parsed.dropped > 0) throw new AppError("BAD_REQUEST", "At most 30 runs per comparison.", { runs: ["At most 30 run ids."] });
  const { runs, missing } = await loadCompareRuns(parsed.ids);
  if (missing.length > 0) throw new AppError("NOT_FOUND", `No run with id ${missing.join(", ")}.`);
  const stamp = new Date().toISOString();
  const name = `probebook-comparison-${stamp.slice(0, 10)}`;
  if (format.data === "csv") {
    return new Response(measurementsCsv(runs), {
      headers: { "content-type": "text/csv; charset=utf-8", "content-disposition": attachment(`${name}.csv`) },
    });
  }
  return new Response(JSON.stringify(comparisonJson({ title: `Comparison of ${runs.length} runs`, createdAt: stamp, runs }), null, 2), {
    headers: { "content-type": "application/json; charset=utf-8", "content-disposition": attachment(`${name}.json`) },
  });
});
