import { isNumeric } from "../core/number";
import { SWAP_COLUMNS } from "./sadf-json-map";

// Layouts of sysstat 5–7 (and up to 12.3 for the per-CPU interrupt table) that the modern text
// parser would otherwise drop or file under other names. The formats are sar.c's write_stats_core
// and write_stats of sysstat 5.0.5 and 6.0.1 (their printf strings), see fixtures/README.md:
//   printf("\n%-11s    proc/s\n") / printf("\n%-11s   cswch/s\n")        -c and -w: one column each
//   printf("\n%-11s      INTR    intr/s\n") + "%-11s       sum"            -I SUM (and "%3d" per irq)
//   printf("\n%-11s  CPU") + "  i%03d/s" per interrupt, rows "%-11s  %3d"  -I … -P …: per CPU
//   "kbmemfree kbmemused %memused kbbuffers kbcached kbswpfree kbswpused %swpused kbswpcad"  -r

// A lone column header: a per-second rate ("proc/s", "cswch/s", "intr/s") or a percentage.
const ONE_COLUMN_RE = /^(?:[A-Za-z][A-Za-z0-9_-]*\/s|%[A-Za-z][A-Za-z0-9_-]*)$/;

/** sysstat ≤ 7 prints -c as "proc/s" alone and -w as "cswch/s" alone: a one-column table. */
export function isOneColumnHeader(tokens: readonly string[]): boolean {
  const only = tokens[0];
  return tokens.length === 1 && only !== undefined && only.length <= 32 && ONE_COLUMN_RE.test(only) && !isNumeric(only);
}

const PER_CPU_INTERRUPT_RE = /^i(\d{3,4})\/s$/;

/** "i009/s" (one interrupt, one column, rows per CPU) → the interrupt "9"; null otherwise. */
export function perCpuInterrupt(column: string): string | null {
  const m = PER_CPU_INTERRUPT_RE.exec(column);
  return m ? String(Number(m[1])) : null;
}

const SWAP_NAMES = new Set(Object.values(SWAP_COLUMNS));

export interface OldCell {
  metric: string;
  /** Dims this cell adds to its row's (the interrupt of a per-CPU column). */
  dims: Record<string, string>;
  /** A section other than the table's (the swap half of the combined memory table). */
  section?: string;
}

/**
 * How a value column of an old layout is stored, so that it reads like the same figure from a
 * modern sar or sadf: per-CPU interrupt columns become "intr/s" with an "intr" dim (the sum row
 * of "INTR intr/s" uses that metric too), and the swap columns of the old combined memory table
 * go to the "swap" section, where sar -S and sadf -j put them. Null: an ordinary column.
 */
export function oldCell(section: string, column: string): OldCell | null {
  const intr = perCpuInterrupt(column);
  if (intr !== null) return { metric: "intr/s", dims: { intr } };
  if (section === "memory" && SWAP_NAMES.has(column)) return { metric: column, dims: {}, section: "swap" };
  return null;
}

/** Whether a header is the old per-CPU interrupt table ("CPU i000/s i001/s …"). */
export function isPerCpuInterruptTable(columns: readonly string[]): boolean {
  return columns.some((c) => PER_CPU_INTERRUPT_RE.test(c));
}
