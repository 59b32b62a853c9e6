import { isNumeric, parseLocaleNumber } from "../core/number";
import { MAX_DIM_CHARS } from "../core/schemas";
import { splitLines } from "../core/text";
import type { Measurement } from "../core/types";
import { KEY_COLUMNS, sectionFor, unitFor } from "./columns";
import { readTime } from "./time";

// sar's text report: a "Linux …" banner, then per table a header line that starts with a time,
// rows that start with a time, and optionally average rows whose label is "Average:" in the
// user's language ("Durchschn.:", "Moyenne :", "平均时间:"). sar repeats headers between
// sections and samples, and prints "LINUX RESTART" when the data file spans a reboot.

interface Table {
  columns: string[];
  section: string;
}

export interface SarTextResult {
  measurements: Measurement[];
  warnings: string[];
  tables: number;
  /** Data rows with a time (not averages), in order; used for progress. */
  sampleTimes: string[];
  errors: string[];
}

const ERROR_RE = /^(Cannot open|Invalid system activity file|Requested activities not available|Please check if data collecting|Usage: sar|sar: )/i;

// Column names look like "%user", "pgpgin/s", "rd_sec/s", "areq-sz", "ldavg-1", "DEV".
const COLUMN_RE = /^[%A-Za-z][A-Za-z0-9_%/.-]*$/;
// Translated average labels: "Average:", "Durchschn.:", "Moyenne :", "Media:", "平均时间:".
const AVERAGE_LABEL_RE = /^[\p{L}\p{M}.'’]+(?: [\p{L}\p{M}.'’]+)*\s?[:：]$/u;
const LABEL_WORD_RE = /^[\p{L}\p{M}.'’]+$/u;

function isHeader(tokens: string[]): boolean {
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

  const addRow = (values: string[], time: string): void => {
    if (!table || values.length !== table.columns.length) {
      mismatched++;
      return;
    }
    const dims: Record<string, string> = { section: table.section, time };
    const cells: { metric: string; value: number }[] = [];
    for (const [i, column] of table.columns.entries()) {
      const text = values[i] ?? "";
      const key = KEY_COLUMNS[column];
      if (key) {
        dims[key] = text.slice(0, MAX_DIM_CHARS);
        continue;
      }
      const value = parseLocaleNumber(text);
      if (value === null) {
        mismatched++;
        return;
      }
      cells.push({ metric: column, value });
    }
    if (time !== "average") sampleTimes.push(time);
    for (const c of cells) measurements.push({ metric: c.metric, value: c.value, unit: unitFor(c.metric), dims: { ...dims } });
  };

  for (const line of splitLines(output)) {
    const text = line.trim();
    if (text === "") continue;
    if (/LINUX RESTART/i.test(text)) {
      restarts++;
      table = null;
      continue;
    }
    if (/^Linux\s+\S+\s+\(/.test(text)) {
      table = null; // banner of another report
      continue;
    }
    if (ERROR_RE.test(text)) {
      errors.push(text);
      continue;
    }
    const label = readTime(text);
    if (label) {
      const tokens = text.slice(label.length).trim().split(/\s+/).filter(Boolean);
      if (isHeader(tokens)) {
        table = { columns: tokens, section: sectionFor(tokens) };
        seen.set(tokens.join(" "), table);
        tables++;
      } else if (table) {
        addRow(tokens, label.time);
      }
      continue;
    }
    // Not a time: an average row or its header. The label ends at the first token ending in ":"
    // ("Moyenne :" is two tokens); without a colon the last N tokens are the N columns.
    const tokens = text.split(/\s+/);
    const colon = tokens.findIndex((t, i) => i < 3 && /[:：]$/.test(t));
    if (colon >= 0 && AVERAGE_LABEL_RE.test(tokens.slice(0, colon + 1).join(" "))) {
      const rest = tokens.slice(colon + 1);
      if (isHeader(rest)) {
        table = seen.get(rest.join(" ")) ?? null;
        continue;
      }
      if (table && rest.length === table.columns.length) {
        addRow(rest, "average");
        continue;
      }
    }
    if (table && tokens.length > table.columns.length) {
      const head = tokens.slice(0, tokens.length - table.columns.length);
      if (head.every((t) => LABEL_WORD_RE.test(t))) {
        addRow(tokens.slice(-table.columns.length), "average");
      }
    }
  }

  if (restarts > 0) {
    warnings.push(`the system restarted ${restarts} time(s) during the recording (LINUX RESTART): counters before and after a restart are not comparable`);
  }
  if (mismatched > 0) warnings.push(`${mismatched} sar row(s) did not match their header and were skipped`);
  return { measurements, warnings, tables, sampleTimes, errors };
}
