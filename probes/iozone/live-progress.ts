// iozone's live progress. iozone prints a table cell as each test ends (a line every few seconds
// at most), and whether a row is finished depends on the rows before it, so the tracker keeps the
// output's lines, split once as they arrive, and reads its table again from them at each piece
// (a few dozen lines) rather than from the whole text. The series are the table's cells so far,
// as the stored result's parser gives them (parse.ts), without it: the -R report that repeats the
// table comes after the last test, when the run page shows the stored result.
import { guarded, RecordSplitter, SeriesMemo, type LiveProgress } from "../core/live-progress";
import type { Measurement, Progress } from "../core/types";
import { parseAutoTables } from "./auto-table";
import type { IozoneParams } from "./params";
import { iozoneProgressOfLines } from "./progress";
import { iozoneSeriesOf } from "./progress-cells";
import { parseThroughput } from "./throughput";

/** The cells parse.ts would return so far, in its order (auto table, then throughput lines). */
function cellsSoFar(lines: string[], opsMode: boolean): Measurement[] {
  const cells = [...parseAutoTables(lines).measurements, ...parseThroughput(lines).measurements];
  // -O prints operations per second in the same layout (parse.ts does the same).
  if (opsMode) for (const m of cells) m.unit = "1/s";
  return cells;
}

export function iozoneLiveProgress(params: IozoneParams): LiveProgress {
  const split = new RecordSplitter();
  const memo = new SeriesMemo();
  const done: string[] = [];
  let opsMode = false;
  let current: Progress | null = null;
  let lines: string[] = [];
  return {
    append: (text) =>
      guarded(() => {
        for (const r of split.push(text)) {
          done.push(r.text);
          opsMode ||= /Output is in operations per second/i.test(r.text);
        }
        // As splitLines reads the whole output: a held \r already ends the last line.
        lines = split.tailEndsWithCR ? [...done, split.tail, ""] : [...done, split.tail];
        // Unfinished unless the output ends with a line break (an empty tail after a record).
        const unfinished = !split.tailEndsWithCR && !(split.tail === "" && done.length > 0);
        current = iozoneProgressOfLines([...lines], unfinished, params);
        memo.invalidate();
      }),
    current: () => current,
    series: () => memo.get(() => iozoneSeriesOf(cellsSoFar(lines, opsMode || /Output is in operations per second/i.test(split.tail)))),
  };
}
