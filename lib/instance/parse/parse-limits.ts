// Caps on what one parse may produce. A run's result is drawn in a browser and stored as one JSON
// value; beyond these sizes nothing useful is shown and the server only burns memory and time.
import type { NormalisedResult } from "../../../probes/core/types";

export const PARSE_LIMITS = {
  /** Fields on one line of tool output: the widest real tables have a few hundred columns. */
  inputFieldsPerLine: 2_000,
  /** Distinct metric names in a result (a sampler's columns). */
  columns: 1_000,
  /** Distinct dimension tuples (rows: timestamps × devices, file × record sizes). */
  rows: 200_000,
  /** Measurements in a result; the same cap as the stored result's schema. */
  measurements: 500_000,
  /** Wall-clock time and heap of one parse. */
  timeoutMs: 15_000,
  heapMb: 768,
} as const;

/** Why the output is too wide to parse at all (checked before parsing), or null. */
export function inputTooWide(output: string, max = PARSE_LIMITS.inputFieldsPerLine): string | null {
  let fields = 0;
  let inField = false;
  let line = 1;
  for (let i = 0; i < output.length; i++) {
    const c = output.charCodeAt(i);
    if (c === 10) {
      fields = 0;
      inField = false;
      line++;
    } else if (c === 32 || c === 9 || c === 13 || c === 44 || c === 59) {
      inField = false;
    } else if (!inField) {
      inField = true;
      if (++fields > max) return `line ${line} has more than ${max} columns; Probebook reads at most ${max} per line.`;
    }
  }
  return null;
}

/** Why a parsed result is too large to keep, or null. */
export function resultTooLarge(result: NormalisedResult, limits = PARSE_LIMITS): string | null {
  const n = result.measurements.length;
  if (n > limits.measurements) return `the output holds ${n.toLocaleString("en")} measurements; at most ${limits.measurements.toLocaleString("en")} are kept per run.`;
  const metrics = new Set<string>();
  const rows = new Set<string>();
  for (const m of result.measurements) {
    metrics.add(m.metric);
    if (metrics.size > limits.columns) return `the output has more than ${limits.columns.toLocaleString("en")} columns (metrics); split it into smaller runs.`;
    rows.add(JSON.stringify(m.dims));
    if (rows.size > limits.rows) return `the output has more than ${limits.rows.toLocaleString("en")} rows; split it into smaller runs.`;
  }
  return null;
}
