import { parseLocaleNumber } from "../core/number";
import { MAX_DIM_CHARS } from "../core/schemas";
import { splitLines } from "../core/text";
import type { Measurement } from "../core/types";
import { sectionFor, TEXT_COLUMNS, unitFor } from "./columns";
import { readTime } from "./time";

// sadf -p ("database-friendly"): one value per line,
//   host \t interval \t 2019-04-18 13:20:19 UTC \t row \t column \t value
// where row is "-" (no row key), "all", "cpu0", "sda", "eth0", "fan1", "bus2", "ttyS0", "BAT0", an
// interrupt … and column is sar's column name. Lines of one row are consecutive, so a row is
// rebuilt from them and given the section and dims sar's text gives the same table.

export interface SadfPResult {
  measurements: Measurement[];
  warnings: string[];
}

const LINE_RE = /^[^\t]*\t-?\d+\t(\d{4}-\d{2}-\d{2}) (\d{2}:\d{2}:\d{2})(?: \S+)?\t([^\t]*)\t([^\t]+)\t(.*)$/;
export const SADF_P_RE = /^[^\t\n]*\t-?\d+\t\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}[^\t]*\t[^\t]*\t[^\t]+\t/m;

// The dims key of a section's rows, and how sadf -p spells the row ("cpu0" for CPU 0).
const ROW_DIM: Record<string, string> = {
  cpu: "cpu", softnet: "cpu", "cpu-frequency": "cpu", disk: "device", network: "iface", filesystem: "filesystem",
  fchost: "fchost", serial: "tty", fan: "fan", temperature: "temp", voltage: "in", battery: "bat", usb: "bus", interrupts: "intr",
};
const ROW_PREFIX = /^(?:cpu|fan|temp|in|bus|ttyS|BAT)(\d+)$/;
// sadf -p names the shared-memory column differently from sar's text header.
const COLUMN_ALIASES: Record<string, string> = { kbshared: "kbshmem" };

/** The table a column belongs to, or null when it cannot tell tables apart (words, retrans/s). */
function tableOf(column: string): string | null {
  if (TEXT_COLUMNS[column] !== undefined || column === "retrans/s") return null;
  const section = sectionFor([column]);
  return section === "other" ? null : section;
}

interface Row {
  date: string;
  time: string;
  row: string;
  cells: { column: string; text: string }[];
}

function sectionOf(row: Row): string {
  const columns = row.cells.map((c) => c.column);
  // Interrupts since 12.4: the columns are "all", "cpu0" …; before, "intr/s".
  if (columns.every((c) => c === "all" || /^cpu\d+$/.test(c)) || columns.includes("intr/s")) return "interrupts";
  const section = sectionFor(row.row === "-" ? columns : ["DEV", ...columns]);
  // "tps" is both sar -b (no row key) and sar -d (one row per device).
  if (section === "io" && row.row !== "-") return "disk";
  return section === "disk" && row.row === "-" ? "io" : section;
}

export function parseSadfP(output: string): SadfPResult {
  const rows: Row[] = [];
  let skipped = 0;
  let restarts = 0;
  for (const line of splitLines(output)) {
    if (line.trim() === "") continue;
    // Restart markers and "COM <comment>" records (sadc -C) carry no values.
    if (/\tLINUX-RESTART\t/.test(line)) {
      restarts++;
      continue;
    }
    if (/^[^\t]*\t-?\d+\t[^\t]*\tCOM /.test(line)) continue;
    const m = LINE_RE.exec(line);
    if (!m) {
      skipped++;
      continue;
    }
    const [, date = "", clock = "", row = "", rawColumn = "", text = ""] = m;
    const time = readTime(clock)?.time;
    if (!time) {
      skipped++;
      continue;
    }
    const column = COLUMN_ALIASES[rawColumn] ?? rawColumn;
    const last = rows[rows.length - 1];
    // A new row starts with a new time or row name, when a column repeats (two USB devices on
    // one bus share the row name "bus2"), or when the column is another table's (the tables
    // without a row key all have the row name "-").
    const table = tableOf(column);
    const lastTable = last?.cells.map((c) => tableOf(c.column)).find((t) => t !== null) ?? null;
    const sameTable = table === null || lastTable === null || table === lastTable;
    if (last && last.date === date && last.time === time && last.row === row && sameTable && !last.cells.some((c) => c.column === column)) {
      last.cells.push({ column, text });
    } else {
      rows.push({ date, time, row, cells: [{ column, text }] });
    }
  }

  const days = [...new Set(rows.map((r) => r.date))];
  const measurements: Measurement[] = [];
  for (const row of rows) {
    const section = sectionOf(row);
    const dims: Record<string, string | number> = { section, time: row.time };
    if (days.length > 1) dims.day = days.indexOf(row.date) + 1;
    const dim = ROW_DIM[section];
    if (dim && row.row !== "-") dims[dim] = row.row.replace(ROW_PREFIX, "$1").slice(0, MAX_DIM_CHARS);
    for (const cell of row.cells) {
      const textDim = TEXT_COLUMNS[cell.column];
      if (textDim) dims[textDim] = cell.text.slice(0, MAX_DIM_CHARS);
    }
    for (const cell of row.cells) {
      if (TEXT_COLUMNS[cell.column] !== undefined) continue;
      const value = parseLocaleNumber(cell.text);
      if (value === null) continue;
      if (section === "interrupts" && cell.column !== "intr/s") {
        const cpu = cell.column === "all" ? "all" : cell.column.replace(/^cpu/, "");
        measurements.push({ metric: "intr/s", value, unit: unitFor("intr/s"), dims: { ...dims, cpu } });
      } else {
        measurements.push({ metric: cell.column, value, unit: unitFor(cell.column), dims: { ...dims } });
      }
    }
  }
  const warnings = skipped > 0 ? [`${skipped} sadf -p line(s) were not host/interval/timestamp/row/column/value and were skipped`] : [];
  if (restarts > 0) {
    warnings.push(`the system restarted ${restarts} time(s) during the recording (LINUX-RESTART): counters before and after a restart are not comparable`);
  }
  return { measurements, warnings };
}
