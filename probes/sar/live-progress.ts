// sar's live progress: samples counted as they are printed, one line at a time, without the text
// parser (parse-text.ts reads every locale, averages and sections into measurements, which a
// progress bar does not need). The agent runs sar with LC_ALL=C and S_TIME_FORMAT=ISO
// (command.ts), so a sample row is a 24-hour time, then as many cells as its table's header has
// columns, some of them numbers. probes/live-catalog.test.ts holds this count against
// extractSarProgress over every C-locale fixture.
import { makeProgress } from "../core/progress";
import { guarded, NO_SERIES, RecordSplitter, type LiveProgress } from "../core/live-progress";
import { isNumeric } from "../core/number";
import type { Progress } from "../core/types";
import type { SarParams } from "./params";
import { readTime } from "./time";

// Column names look like "%user", "pgpgin/s", "rd_sec/s", "areq-sz", "ldavg-1", "DEV" (as in parse-text.ts).
const COLUMN_RE = /^[%A-Za-z][A-Za-z0-9_%/.-]*$/;
const isHeader = (tokens: string[]) => tokens.length >= 2 && tokens.every((t) => t.length <= 64 && COLUMN_RE.test(t) && !isNumeric(t));
const AVERAGE_RE = /^[\p{L}\p{M}.'’]+(?: [\p{L}\p{M}.'’]+)*\s?[:：]\s/u;

/** Counts sample intervals: changes of the row time among sample rows, as extractSarProgress does. */
class SampleCounter {
  private columns: number | null = null;
  private readonly seen = new Set<string>();
  private previous: string | null = null;
  samples = 0;

  /** Would this line count, and as which time; `commit` false only looks (the unfinished line). */
  line(raw: string, commit: boolean): number {
    const text = raw.trim();
    if (text === "") return this.samples;
    if (/LINUX RESTART/i.test(text) || /^Linux\s+\S+\s+\(/.test(text)) {
      if (commit) this.columns = null;
      return this.samples;
    }
    const label = readTime(text);
    if (!label) {
      // "Average: CPU %user …" selects a table seen before, for the average rows under it.
      const rest = AVERAGE_RE.test(text) ? text.replace(AVERAGE_RE, "").trim().split(/\s+/) : [];
      if (commit && isHeader(rest)) this.columns = this.seen.has(rest.join(" ")) ? rest.length : null;
      return this.samples;
    }
    const tokens = text.slice(label.length).trim().split(/\s+/).filter(Boolean);
    if (isHeader(tokens)) {
      if (commit) {
        this.columns = tokens.length;
        this.seen.add(tokens.join(" "));
      }
      return this.samples;
    }
    if (this.columns === null || tokens.length !== this.columns || !tokens.some(isNumeric)) return this.samples;
    const counted = label.time !== this.previous ? this.samples + 1 : this.samples;
    if (commit) {
      this.samples = counted;
      this.previous = label.time;
    }
    return counted;
  }
}

export function sarLiveProgress(params: SarParams): LiveProgress {
  const split = new RecordSplitter();
  const counter = new SampleCounter();
  const at = (samples: number): Progress => {
    const done = Math.min(samples, params.count);
    return makeProgress(done, params.count, "samples", `${done} of ${params.count} samples (every ${params.interval} s)`);
  };
  let current: Progress = at(0);
  return {
    append: (text) =>
      guarded(() => {
        for (const r of split.push(text)) counter.line(r.text, true);
        current = at(counter.line(split.tail, false));
      }),
    current: () => current,
    // sar's series come from its parsed result, which exists once the run has ended.
    series: () => NO_SERIES,
  };
}
