// A series' points as CSV (the figure followed, in its display unit, one row per run) or its whole
// answer as JSON: what a spreadsheet or another tool needs to look at the trend on its own.
import { toCsv } from "../../compare/csv";
import { AppError } from "../../http/app-error";
import { getSeries } from "./get-series";

export async function exportSeries({ id, format }: { id: string; format: "csv" | "json" }): Promise<{ text: string } | { json: unknown }> {
  const s = await getSeries({ id });
  if (!s) throw new AppError("NOT_FOUND", `No series ${id}.`);
  if (format === "json") return { json: s };
  const unit = s.metric?.unit ?? "";
  const noun = s.metric?.noun ?? "";
  const rows = s.points.map((p) => [p.runId, p.at, p.status, noun, p.value, unit, p.low, p.high, p.valid, p.flags.join("; "), p.scheduled, p.notes]);
  return { text: toCsv(["run_id", "finished_at", "status", "figure", "value", "unit", "low", "high", "valid", "flags", "scheduled", "notes"], rows) };
}
