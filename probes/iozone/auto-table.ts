import { isNumeric, parseLocaleNumber } from "../core/number";
import { expandTabs, tokensWithPositions, type PositionedToken } from "../core/text";
import type { Measurement } from "../core/types";

// The auto table, as iozone 3.3xx–3.5xx prints it:
//                                                               random    random     bkwd ...
//               kB  reclen    write  rewrite    read    reread    read     write     read ...
//            65536       4  1509283  4428671  4734963  5142537  4213992  2505088
// Skipped tests leave blank cells, so cells are matched to columns by where they end (the
// numbers are right-aligned under the header), never by counting tokens.

/** Metric and lower header word of each column, in iozone's fixed order. */
export const AUTO_COLUMNS: ReadonlyArray<{ metric: string; word: string }> = [
  { metric: "write", word: "write" },
  { metric: "rewrite", word: "rewrite" },
  { metric: "read", word: "read" },
  { metric: "reread", word: "reread" },
  { metric: "random_read", word: "read" },
  { metric: "random_write", word: "write" },
  { metric: "backward_read", word: "read" },
  { metric: "record_rewrite", word: "rewrite" },
  { metric: "stride_read", word: "read" },
  { metric: "fwrite", word: "fwrite" },
  { metric: "frewrite", word: "frewrite" },
  { metric: "fread", word: "fread" },
  { metric: "freread", word: "freread" },
];

// Where cells end relative to the end of the reclen cell, for headers whose positions cannot be
// trusted (tab-separated): 3.4xx+ layout and the older 3.3xx layout ("KB  reclen   write rewrite").
const LAYOUTS: ReadonlyArray<readonly number[]> = [
  [9, 18, 27, 36, 45, 54, 63, 73, 83, 92, 101, 110, 119],
  [8, 16, 24, 34, 42, 50, 58, 67, 76, 85, 94, 102, 111],
];
const TOLERANCE = 2;

export const HEADER_RE = /^\s*k[bB]\s+reclen(\s|$)/i;
const ROW_RE = /^\s*\d+[\s\d.,]*$/;

interface Column { metric: string; end: number }
interface Header { columns: Column[]; reclenEnd: number; trusted: boolean; tabbed: boolean }

export interface AutoTableResult {
  measurements: Measurement[];
  warnings: string[];
  /** Rows with at least one cell. */
  rows: number;
  /** Cells per aligned row, in order, rows without cells included (live progress). */
  rowCells: number[];
}

export function parseHeader(line: string): Header {
  const tabbed = /\S\t+\S/.test(line.trim());
  const tokens = tokensWithPositions(expandTabs(line));
  const reclen = tokens[1];
  const columns: Column[] = [];
  tokens.slice(2).forEach((t, i) => {
    const col = AUTO_COLUMNS[i];
    if (col && col.word === t.text.toLowerCase() && columns.length === i) columns.push({ metric: col.metric, end: t.end });
  });
  return { columns, reclenEnd: reclen?.end ?? 0, trusted: !tabbed, tabbed };
}

/** Parses the rows that follow each auto-table header. */
export function parseAutoTables(lines: string[]): AutoTableResult {
  const measurements: Measurement[] = [];
  const warnings: string[] = [];
  let header: Header | null = null;
  let rows = 0;
  const cellCounts: number[] = [];
  for (const raw of lines) {
    if (HEADER_RE.test(raw)) {
      header = parseHeader(raw);
      continue;
    }
    if (!header) continue;
    if (!ROW_RE.test(raw)) {
      if (raw.trim() !== "") header = null; // the table ends at the first non-row text
      continue;
    }
    const cells = rowCells(raw, header);
    if (!cells) {
      warnings.push(`iozone row "${raw.trim().slice(0, 80)}" could not be aligned with the table header; row skipped`);
      continue;
    }
    if (cells.values.length > 0) rows++;
    cellCounts.push(cells.values.length);
    for (const cell of cells.values) {
      measurements.push({ metric: cell.metric, value: cell.value, unit: "KiB/s", dims: { file_kib: cells.fileKiB, record_kib: cells.recordKiB } });
    }
  }
  return { measurements, warnings, rows, rowCells: cellCounts };
}

interface RowCells { fileKiB: number; recordKiB: number; values: { metric: string; value: number }[] }

function rowCells(raw: string, header: Header): RowCells | null {
  if (header.tabbed && raw.includes("\t")) return tabRow(raw, header);
  const tokens = tokensWithPositions(expandTabs(raw));
  const [file, rec, ...cells] = tokens;
  if (!file || !rec || !cells.every((c) => isNumeric(c.text))) return null;
  const fileKiB = parseLocaleNumber(file.text);
  const recordKiB = parseLocaleNumber(rec.text);
  if (fileKiB === null || recordKiB === null) return null;
  const assigned = cells.length === 0 ? [] : align(cells, rec.end, header);
  if (!assigned) return null;
  return { fileKiB, recordKiB, values: assigned };
}

/** Tab-separated rows keep empty fields for skipped tests, so the field index is the column. */
function tabRow(raw: string, header: Header): RowCells | null {
  const fields = raw.replace(/^[ \t]+/, "").split("\t").map((f) => f.trim());
  const fileKiB = parseLocaleNumber(fields[0] ?? "");
  const recordKiB = parseLocaleNumber(fields[1] ?? "");
  if (fileKiB === null || recordKiB === null) return null;
  const values: RowCells["values"] = [];
  for (const [i, f] of fields.slice(2).entries()) {
    if (f === "") continue;
    const col = header.columns[i] ?? AUTO_COLUMNS[i];
    const value = parseLocaleNumber(f);
    if (!col || value === null) return null;
    values.push({ metric: col.metric, value });
  }
  return { fileKiB, recordKiB, values };
}

function align(cells: PositionedToken[], reclenEnd: number, header: Header): RowCells["values"] | null {
  const candidates: Column[][] = [];
  if (header.trusted && header.columns.length > 0) {
    // Shift by the reclen cell so re-indented copies (quoted mail, markdown) still line up.
    const shift = reclenEnd - header.reclenEnd;
    candidates.push(header.columns.map((c) => ({ metric: c.metric, end: c.end + shift })));
  }
  for (const layout of LAYOUTS) {
    candidates.push(AUTO_COLUMNS.map((c, i) => ({ metric: c.metric, end: reclenEnd + (layout[i] ?? 0) })));
  }
  for (const columns of candidates) {
    const hit = matchByPosition(cells, columns);
    if (hit) return hit;
  }
  // A full row needs no positions at all (e.g. a header copied without its spacing).
  const names = header.columns.length > 0 ? header.columns : AUTO_COLUMNS;
  if (cells.length === names.length) return byOrder(cells, names);
  return null;
}

function matchByPosition(cells: PositionedToken[], columns: Column[]): RowCells["values"] | null {
  const out: RowCells["values"] = [];
  let next = 0;
  for (const cell of cells) {
    let found = -1;
    for (let i = next; i < columns.length; i++) {
      const col = columns[i];
      if (col && Math.abs(col.end - cell.end) <= TOLERANCE) {
        found = i;
        break;
      }
    }
    const col = columns[found];
    const value = parseLocaleNumber(cell.text);
    if (!col || value === null) return null;
    out.push({ metric: col.metric, value });
    next = found + 1;
  }
  return out;
}

function byOrder(cells: PositionedToken[], columns: ReadonlyArray<{ metric: string }>): RowCells["values"] | null {
  const out: RowCells["values"] = [];
  for (const [i, cell] of cells.entries()) {
    const value = parseLocaleNumber(cell.text);
    const col = columns[i];
    if (!col || value === null) return null;
    out.push({ metric: col.metric, value });
  }
  return out;
}
