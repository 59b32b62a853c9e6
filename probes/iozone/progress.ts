import { guardProgress, makeProgress } from "../core/progress";
import { splitLines } from "../core/text";
import type { Progress } from "../core/types";
import { parseAutoTables } from "./auto-table";
import { autoRecordSizes, effectiveTests } from "./command";
import type { IozoneParams } from "./params";
import { THROUGHPUT_LINES, type IozoneTest } from "./tests";
import { parseThroughput } from "./throughput";

// Columns each test adds to an auto-table row (write+rewrite = 2, backward read = 1 …).
const COLUMNS: Partial<Record<IozoneTest, number>> = { 0: 2, 1: 2, 2: 2, 3: 1, 4: 1, 5: 1, 6: 2, 7: 2 };

/**
 * Auto mode: iozone prints a row's file and record size first, then each cell as its test
 * finishes, and ends the row when the record size is done. Progress is finished rows plus the
 * finished share of the current row, of (record sizes from -y to -q, capped at the file size).
 * Throughput mode: "Children see throughput" lines printed of those the chosen tests produce.
 */
export const extractIozoneProgress = guardProgress((output: string, params: IozoneParams): Progress | null =>
  iozoneProgressOfLines(splitLines(output), !/[\r\n]$/.test(output), params),
);

/**
 * The same from the output's lines (the last one empty when the output ends with a line break);
 * `unfinished`: the last line is still being printed. Takes the lines over (the last may be cut).
 */
export function iozoneProgressOfLines(lines: string[], unfinished: boolean, params: IozoneParams): Progress | null {
  if (params.mode === "throughput") {
    const expected = effectiveTests(params).reduce<number>((sum, t) => sum + THROUGHPUT_LINES[t], 0);
    const done = parseThroughput(lines).lines;
    return makeProgress(done, expected, "tests", `${Math.min(done, expected)} of ${expected} throughput tests`);
  }
  const records = autoRecordSizes(params);
  const perRow = effectiveTests(params).reduce<number>((sum, t) => sum + (COLUMNS[t] ?? 0), 0);
  // The last cell of an unfinished line may itself be cut off ("42420" of "4242086"): drop it.
  if (unfinished && lines.length > 0) lines[lines.length - 1] = (lines[lines.length - 1] ?? "").replace(/\S+$/, "");
  const cells = parseAutoTables(lines).rowCells;
  const current = unfinished && /^\s*\d+\s+\d+/.test(lines[lines.length - 1] ?? "") ? cells.pop() : undefined;
  const finished = cells.filter((n) => n > 0).length;
  const partial = current !== undefined && perRow > 0 ? Math.min(current / perRow, 0.99) : 0;
  const shown = Math.min(finished, records.length);
  const last = shown > 0 ? records[shown - 1] : undefined;
  const label = `${shown} of ${records.length} record sizes` + (last !== undefined ? ` (last: ${last} KiB)` : "");
  return makeProgress(finished + partial, records.length, "rows", label);
}
