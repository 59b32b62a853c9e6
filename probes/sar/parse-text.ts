import { isNumeric, parseLocaleNumber } from "../core/number";
import { MAX_DIM_CHARS } from "../core/schemas";
import { splitLines, tokensWithPositions } from "../core/text";
import type { Measurement } from "../core/types";
import { KEY_COLUMNS, TEXT_COLUMNS, sectionFor, unitFor } from "./columns";
import { isOneColumnHeader, oldCell } from "./old-layouts";
import { dayNumber, readTime } from "./time";
import { extremeOf, labelKind, languageOfLabel, isSarError } from "./vocabulary";

// sar's text report: a "Linux …" banner, then per table a header line that starts with a time,
// rows that start with a time, and optionally average rows whose label is "Average:" in the
// user's language ("Durchschn.:", "Moyenne :", "平均时间:"). sar repeats headers between
// sections and samples, and prints "LINUX RESTART" when the data file spans a reboot.

interface Table {
  columns: string[];
  section: string;
  /** Offsets of free-text columns (-m USB "manufact", "product") after the column before them. */
  free: { index: number; offset: number }[];
}

// Words that may contain spaces ("HP Wireless Keyboard"): sliced by position, not split.
const FREE_TEXT = new Set(["manufact", "product"]);

function makeTable(columns: string[], header: string): Table {
  const free: Table["free"] = [];
  const first = columns.findIndex((c) => FREE_TEXT.has(c));
  if (first > 0) {
    const tokens = tokensWithPositions(header);
    const anchor = tokens[tokens.length - columns.length + first - 1];
    columns.forEach((c, i) => {
      const t = tokens[tokens.length - columns.length + i];
      if (i >= first && t && anchor) free.push({ index: i, offset: t.start - anchor.end });
    });
  }
  return { columns, section: sectionFor(columns), free };
}

/** Cells of a row: whitespace-separated, except free-text columns at the end (by position). */
function cellsOf(table: Table, rest: string): string[] {
  if (table.free.length === 0) return rest.trim().split(/\s+/).filter(Boolean);
  const firstFree = table.free[0]?.index ?? 0;
  const tokens = tokensWithPositions(rest);
  const fixed = tokens.slice(0, firstFree).map((t) => t.text);
  const anchor = tokens[firstFree - 1];
  if (!anchor) return fixed;
  const base = anchor.end;
  const cells = [...fixed];
  table.free.forEach((f, i) => {
    const next = table.free[i + 1];
    cells.push(rest.slice(base + f.offset, next ? base + next.offset : undefined).trim());
  });
  return cells;
}

export interface SarTextResult {
  measurements: Measurement[];
  warnings: string[];
  tables: number;
  /** Data rows with a time (not averages), in order; used for progress. */
  sampleTimes: string[];
  errors: string[];
  /** How the text was written, for the "recognised format" message (e.g. "ja_JP", "12-hour"). */
  traits: string[];
}

// The row labels and error messages in every language sysstat translates them into, and which
// language a label is, come from sysstat's own catalogs (vocabulary.ts).

// Column names look like "%user", "pgpgin/s", "rd_sec/s", "areq-sz", "ldavg-1", "DEV".
const COLUMN_RE = /^[%A-Za-z][A-Za-z0-9_%/.-]*$/;
// The shape of a label no catalog holds (a translation of a release not read): words and a colon.
const AVERAGE_LABEL_RE = /^[\p{L}\p{M}.'’]+(?: [\p{L}\p{M}.'’]+)*\s?[:：]$/u;
const LABEL_WORD_RE = /^[\p{L}\p{M}.'’]+$/u;

function isHeader(tokens: string[]): boolean {
  if (isOneColumnHeader(tokens)) return true; // sysstat ≤ 7: "proc/s" or "cswch/s" alone
  return tokens.length >= 2 && tokens.every((t) => t.length <= 64 && COLUMN_RE.test(t) && !isNumeric(t));
}

export function parseSarText(output: string): SarTextResult {
  const measurements: Measurement[] = [];
  const warnings: string[] = [];
  const errors: string[] = [];
  const sampleTimes: string[] = [];
  let table: Table | null = null;
  // Average blocks repeat headers seen before; an unknown header without a time is not sar's.
  const seen = new Map<string, Table>();
  let tables = 0;
  let restarts = 0;
  let mismatched = 0;
  let averageLabel: string | null = null;
  let twelveHour = false;
  let cjkTime = false;
  let extremes = false;
  // sar prints one Average (and -x Summary) block per stretch between restarts: those rows get a
  // "segment" dim when the file has restarts, so the blocks do not collide.
  let segment = 0;
  let rowsInSegment = 0;
  const summaryRows: { at: number; count: number; segment: number }[] = [];
  // A report that crosses midnight (or several days' reports pasted together) repeats times: each
  // table counts the days its times went backwards, and rows get a "day" dim (1, 2, …) then.
  const dayOf = new Map<string, { last: string; day: number }>();
  const timedRows: { at: number; count: number; day: number }[] = [];
  let maxDay = 1;
  // Reports of several days pasted together: each banner's date sets the day its rows start on
  // (counted from the first banner's date), so a later day never shares day 1 with an earlier one.
  let firstDate: number | null = null;
  let lastBanner: string | null = null;
  let bannerDay = 1;
  let nonEmptyLines = 0;

  // `time` is a sample time or "average"; min/max rows of sar -x carry `stat` and no time, so
  // nothing that plots times or averages mistakes them for either.
  const addRow = (values: string[], time: string, stat: "min" | "max" | null = null): void => {
    if (!table || values.length !== table.columns.length) {
      mismatched++;
      return;
    }
    const dims: Record<string, string> = stat ? { section: table.section, stat } : { section: table.section, time };
    const cells: { metric: string; value: number; cpu?: string; dims?: Record<string, string>; section?: string }[] = [];
    // sar -I since 12.4: one row per interrupt, one column per CPU ("INTR all CPU0 CPU1 …").
    const perCpu = table.columns[0] === "INTR" && table.columns[1] === "all";
    for (const [i, column] of table.columns.entries()) {
      const text = values[i] ?? "";
      const key = KEY_COLUMNS[column];
      if (key) {
        dims[key] = text.slice(0, MAX_DIM_CHARS);
        continue;
      }
      const textDim = TEXT_COLUMNS[column];
      if (textDim !== undefined) {
        if (textDim) dims[textDim] = text.slice(0, MAX_DIM_CHARS);
        continue;
      }
      // sysstat ≤ 11 prints "N/A" for an interrupt or serial line that changed between samples.
      if (text === "N/A") continue;
      const value = parseLocaleNumber(text);
      if (value === null) {
        mismatched++;
        return;
      }
      const old = oldCell(table.section, column);
      if (old) cells.push({ metric: old.metric, value, dims: old.dims, section: old.section });
      else if (perCpu) cells.push({ metric: "intr/s", value, cpu: column === "all" ? "all" : column.replace(/^CPU/i, "") });
      else cells.push({ metric: column, value });
    }
    if (time !== "average" && !stat) {
      sampleTimes.push(time);
      const tableKey = table.columns.join(" ");
      const seen = dayOf.get(tableKey) ?? { last: time, day: bannerDay };
      if (time < seen.last) seen.day++;
      seen.last = time;
      dayOf.set(tableKey, seen);
      maxDay = Math.max(maxDay, seen.day);
      timedRows.push({ at: measurements.length, count: cells.length, day: seen.day });
    }
    if (time === "average" || stat) summaryRows.push({ at: measurements.length, count: cells.length, segment });
    rowsInSegment++;
    for (const c of cells) {
      const cellDims: Record<string, string> = c.cpu === undefined ? { ...dims, ...c.dims } : { ...dims, cpu: c.cpu };
      if (c.section) cellDims.section = c.section;
      measurements.push({ metric: c.metric, value: c.value, unit: unitFor(c.metric), dims: cellDims });
    }
  };

  for (const line of splitLines(output)) {
    const text = line.trim();
    if (text === "") continue;
    if (/LINUX RESTART/i.test(text)) {
      restarts++;
      if (rowsInSegment > 0) segment++;
      rowsInSegment = 0;
      table = null;
      continue;
    }
    if (/^Linux\s+\S+\s+\(/.test(text)) {
      table = null; // banner of another report
      const date = /^Linux\s+\S+\s+\([^)]*\)\s+(\S+(?: \S+ \S+)?)/.exec(text)?.[1]?.split(/\s+_/)[0]?.trim() ?? null;
      if (date !== null && date !== lastBanner) {
        const n = dayNumber(date) ?? dayNumber(date.split(/\s+/)[0] ?? "");
        if (firstDate === null && n !== null) firstDate = n;
        // A known date counts from the first one; an unreadable new date starts the next day.
        bannerDay = n !== null && firstDate !== null ? Math.max(1, n - firstDate + 1) : lastBanner === null ? 1 : maxDay + 1;
        maxDay = Math.max(maxDay, bannerDay);
        lastBanner = date;
        dayOf.clear();
        // Each day's report has its own Average block: number them like stretches between restarts.
        if (rowsInSegment > 0) segment++;
        rowsInSegment = 0;
      }
      continue;
    }
    // sar prints its errors before anything else: translations are looked up on the first lines.
    if (isSarError(text, ++nonEmptyLines <= 10)) {
      errors.push(text);
      continue;
    }
    const label = readTime(text);
    if (label) {
      if (/[AaPp]\.?\s?[Mm]\.?$/.test(text.slice(0, label.length))) twelveHour = true;
      if (/[時时시]/.test(text.slice(0, label.length))) cjkTime = true;
      const rest = text.slice(label.length);
      const tokens = rest.trim().split(/\s+/).filter(Boolean);
      if (isHeader(tokens)) {
        table = makeTable(tokens, rest);
        seen.set(tokens.join(" "), table);
        tables++;
      } else if (table) {
        addRow(cellsOf(table, rest), label.time);
      }
      continue;
    }
    // Not a time: an average row or its header. The label ends at the first token ending in ":"
    // ("Moyenne :" is two tokens); without a colon the last N tokens are the N columns.
    const tokens = text.split(/\s+/);
    const colon = tokens.findIndex((t, i) => i < 3 && /[:：]$/.test(t));
    const labelText = colon >= 0 ? tokens.slice(0, colon + 1).join(" ") : "";
    if (colon >= 0 && (AVERAGE_LABEL_RE.test(labelText) || labelKind(labelText) !== null)) {
      if (extremeOf(labelText)) extremes = true;
      else averageLabel ??= labelText;
      const rest = tokens.slice(colon + 1);
      if (isHeader(rest)) {
        // "Average:" and -x's "Summary:" repeat a header seen with times (same columns).
        table = seen.get(rest.join(" ")) ?? null;
        continue;
      }
      const cells = table ? cellsOf(table, text.slice(text.indexOf(tokens[colon] ?? "") + (tokens[colon] ?? "").length)) : rest;
      if (table && cells.length === table.columns.length) {
        addRow(cells, "average", extremeOf(labelText));
        continue;
      }
    }
    if (table && tokens.length > table.columns.length) {
      const head = tokens.slice(0, tokens.length - table.columns.length);
      if (head.every((t) => LABEL_WORD_RE.test(t))) {
        // Labels without a colon: Croatian "Minimum"/"Maksimum" of sar -x are extremes.
        const stat = extremeOf(head.join(" "));
        if (stat) extremes = true;
        addRow(tokens.slice(-table.columns.length), "average", stat);
      }
    }
  }

  if (maxDay > 1) {
    for (const row of timedRows) {
      for (const m of measurements.slice(row.at, row.at + row.count)) m.dims.day = row.day;
    }
  }
  if (segment > 0) {
    for (const row of summaryRows) {
      for (const m of measurements.slice(row.at, row.at + row.count)) m.dims.segment = String(row.segment + 1);
    }
  }
  if (restarts > 0) {
    warnings.push(`the system restarted ${restarts} time(s) during the recording (LINUX RESTART): counters before and after a restart are not comparable`);
  }
  if (mismatched > 0) warnings.push(`${mismatched} sar row(s) did not match their header and were skipped`);
  const traits: string[] = [];
  const language = averageLabel ? languageOfLabel(averageLabel) : null;
  if (language) traits.push(language);
  if (twelveHour) traits.push("12-hour times");
  if (cjkTime && !language) traits.push("CJK times");
  if (extremes) traits.push("-x minimum/maximum");
  return { measurements, warnings, tables, sampleTimes, errors, traits };
}
