import { comparisonsApi } from "@/lib/api/comparisons";
import { attachment, measurementsCsv } from "@/lib/compare/csv";
import { parseRunIds } from "@/lib/compare/run-ids";
import { AppError } from "@/lib/http/app-error";
import { comparisonJson } from "@/lib/server/comparisons/get-comparison";
import { loadCompareRuns } from "@/lib/server/comparisons/load-runs";
import { handle } from "../../handle";

export const dynamic = "force-dynamic";

/** Signed in: the runs of /compare?runs=… as CSV (one row per measurement) or JSON, not frozen. */
export const GET = handle(comparisonsApi.preview, async ({ req, query }) => {
  // runs may repeat as well as hold commas: read every occurrence, not just the parsed last one.
  const parsed = parseRunIds(new URL(req.url).searchParams.getAll("runs"));
  if (parsed.invalid.length > 0) throw new AppError("BAD_REQUEST", `Not run ids: ${parsed.invalid.join(", ")}.`, { runs: ["Give run ids separated by commas."] });
  if (parsed.ids.length === 0) throw new AppError("BAD_REQUEST", "Give runs=<id>,<id>,… to export.", { runs: ["At least one run id."] });
  if (parsed.dropped > 0) throw new AppError("BAD_REQUEST", "At most 30 runs per comparison.", { runs: ["At most 30 run ids."] });
  const { runs, missing } = await loadCompareRuns(parsed.ids);
  if (missing.length > 0) throw new AppError("NOT_FOUND", `No run with id ${missing.join(", ")}.`);
  const stamp = new Date().toISOString();
  const name = `probebook-comparison-${stamp.slice(0, 10)}`;
  if (query.format === "csv") return { status: 200, type: "text/csv", text: measurementsCsv(runs), headers: { "content-disposition": attachment(`${name}.csv`) } };
  const json = comparisonJson({ title: `Comparison of ${runs.length} runs`, createdAt: stamp, runs });
  return { status: 200, json, indent: true, headers: { "content-disposition": attachment(`${name}.json`) } };
});
