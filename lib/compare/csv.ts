// CSV as RFC 4180 reads it: comma-separated, CRLF line ends, fields quoted when they hold a
// comma, a quote, a line break or edge spaces, quotes doubled. Text that a spreadsheet would run
// as a formula (=, +, -, @, tab or CR first) gets a leading apostrophe; numbers are left alone.
import { displayMeasurement } from "../../probes/core/metrics";
import type { Measurement } from "../../probes/core/types";

export type CsvValue = string | number | boolean | null | undefined;

const FORMULA_START = /^[=+\-@\t\r]/;

export function csvField(value: CsvValue): string {
  if (value === null || value === undefined) return "";
  if (typeof value === "number") return Number.isFinite(value) ? String(value) : "";
  if (typeof value === "boolean") return value ? "true" : "false";
  const text = FORMULA_START.test(value) ? `'${value}` : value;
  return /[",\r\n]|^\s|\s$/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}

export function csvLine(values: readonly CsvValue[]): string {
  return values.map(csvField).join(",");
}

export function toCsv(header: readonly string[], rows: readonly (readonly CsvValue[])[]): string {
  return [csvLine(header), ...rows.map(csvLine)].map((l) => `${l}\r\n`).join("");
}

/** A measurement's dims as "k=v;k=v" in the parser's order ("" when it has none). */
export function dimsText(dims: Measurement["dims"]): string {
  return Object.entries(dims)
    .map(([k, v]) => `${k}=${v}`)
    .join(";");
}

export const MEASUREMENT_CSV_HEADER = ["run", "metric", "dims", "value", "unit"] as const;

/**
 * One row per measurement of each run: run label, metric, dims, value, unit — in the units the run
 * page and compare show (MiB/s, µs; probes/core/metrics.ts), not the tool's own.
 */
export function measurementsCsv(runs: readonly { label: string; result: { measurements: Measurement[] } | null }[]): string {
  const rows: CsvValue[][] = [];
  for (const run of runs) {
    for (const stored of run.result?.measurements ?? []) {
      const m = displayMeasurement(stored);
      rows.push([run.label, m.metric, dimsText(m.dims), m.value, m.unit]);
    }
  }
  return toCsv(MEASUREMENT_CSV_HEADER, rows);
}

/** A file name fragment from free text: "ext4 vs xfs!" → "ext4-vs-xfs". */
export function fileSlug(text: string, fallback = "comparison"): string {
  const s = text
    .normalize("NFKD")
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-+|-+$/g, "")
    .slice(0, 60)
    .replace(/-+$/, "");
  return s || fallback;
}

/** Content-Disposition for a download, with an ASCII name (quoted) and the RFC 5987 form. */
export function attachment(fileName: string): string {
  const ascii = fileName.replace(/[^\x20-\x7e]/g, "_").replace(/["\\]/g, "_");
  return `attachment; filename="${ascii}"; filename*=UTF-8''${encodeURIComponent(fileName)}`;
}
