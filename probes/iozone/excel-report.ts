import { parseLocaleNumber } from "../core/number";
import type { Measurement } from "../core/types";

// The -R section ("Excel output is below:") repeats the auto table pivoted per test:
//   "Writer report"
//           "4"  "8"  "16"
//   "65536"   1509283  2196391  3193291
// Cells of record sizes that were not run (e.g. < 64 KiB for files >= 32 MiB in -n/-g range
// mode) are printed as 0 and are skipped.

const REPORTS: Record<string, string> = {
  "writer": "write",
  "re-writer": "rewrite",
  "reader": "read",
  "re-reader": "reread",
  "random read": "random_read",
  "random write": "random_write",
  "backward read": "backward_read",
  "record rewrite": "record_rewrite",
  "stride read": "stride_read",
  "fwrite": "fwrite",
  "re-fwrite": "frewrite",
  "fread": "fread",
  "re-fread": "freread",
};

const TITLE_RE = /^\s*"([^"]+?)\s+report\s*"\s*$/i;
const RECORDS_RE = /^\s*(?:"\d+"\s*)+$/;
const ROW_RE = /^\s*"(\d+)"((?:\s+[\d.,]+)+)\s*$/;

export interface ExcelResult {
  measurements: Measurement[];
  warnings: string[];
}

export function parseExcelReports(lines: string[]): ExcelResult {
  const measurements: Measurement[] = [];
  const warnings: string[] = [];
  let metric: string | null = null;
  let records: number[] | null = null;
  for (const line of lines) {
    const title = TITLE_RE.exec(line);
    if (title) {
      const name = (title[1] ?? "").trim().toLowerCase();
      metric = REPORTS[name] ?? null;
      records = null;
      // Throughput-mode reports duplicate the "Children see throughput" lines, parsed elsewhere.
      if (!metric && !name.startsWith("throughput")) warnings.push(`ignored iozone report block "${title[1]}"`);
      continue;
    }
    if (!metric) continue;
    if (RECORDS_RE.test(line)) {
      records = [...line.matchAll(/"(\d+)"/g)].map((m) => Number(m[1]));
      continue;
    }
    const row = ROW_RE.exec(line);
    if (row && records) {
      const fileKiB = Number(row[1]);
      const cells = (row[2] ?? "").trim().split(/\s+/);
      cells.forEach((cell, i) => {
        const value = parseLocaleNumber(cell);
        const recordKiB = records?.[i];
        if (value === null || value === 0 || recordKiB === undefined || !metric) return;
        measurements.push({ metric, value, unit: "KiB/s", dims: { file_kib: fileKiB, record_kib: recordKiB } });
      });
      continue;
    }
    if (line.trim() !== "" && !row) {
      metric = null;
      records = null;
    }
  }
  return { measurements, warnings };
}
