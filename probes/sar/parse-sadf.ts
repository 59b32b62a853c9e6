import { parseLocaleNumber } from "../core/number";
import { MAX_DIM_CHARS } from "../core/schemas";
import { splitLines } from "../core/text";
import type { Measurement } from "../core/types";
import { KEY_COLUMNS, TEXT_COLUMNS, sectionFor, unitFor } from "./columns";
import { oldCell } from "./old-layouts";
import { readTime } from "./time";

export interface SadfResult {
  measurements: Measurement[];
  warnings: string[];
  toolVersion: string | null;
}

/** sadf -d writes the CPU "all" row and the interrupt "sum" row as -1. */
const MINUS_ONE: Record<string, string> = { CPU: "all", INTR: "sum" };

/**
 * sadf -d: "# hostname;interval;timestamp;<sar columns…>" per activity, then ";"-separated rows.
 * Two quirks of sysstat's CSV: the USB header lists "manufact;product" first although the rows
 * end with them, and interrupts ("INTR;CPU*") carry one value per CPU without naming the CPUs.
 */
export function parseSadfCsv(output: string): SadfResult {
  const measurements: Measurement[] = [];
  let columns: string[] | null = null;
  let skipped = 0;
  let perCpuInterrupts = 0;
  // Rows that span midnight get a "day" dim (1, 2, …), as the text parser gives them.
  const days: string[] = [];
  const dayOfRow: number[] = [];
  for (const line of splitLines(output)) {
    if (line.startsWith("#")) {
      const fields = line.replace(/^#\s*/, "").split(";");
      columns = fields[0] === "hostname" ? fields.slice(3) : null;
      if (columns?.[0] === "manufact" && columns[1] === "product") columns = [...columns.slice(2), "manufact", "product"];
      continue;
    }
    if (!columns || line.trim() === "" || /LINUX-RESTART/.test(line)) continue;
    const fields = line.split(";");
    const stamp = fields[2] ?? "";
    const time = /^\d+$/.test(stamp)
      ? new Date(Number(stamp) * 1000).toISOString().slice(11, 19)
      : readTime(stamp.replace(/^\d{4}-\d{2}-\d{2}\s+/, ""))?.time;
    const interrupts = columns[0] === "INTR" && columns[1] === "CPU*";
    if ((!interrupts && fields.length !== columns.length + 3) || !time) {
      skipped++;
      continue;
    }
    const values = fields.slice(3);
    const date = /^(\d{4}-\d{2}-\d{2})\s/.exec(stamp)?.[1] ?? (/^\d+$/.test(stamp) ? new Date(Number(stamp) * 1000).toISOString().slice(0, 10) : "");
    if (!days.includes(date)) days.push(date);
    const before = measurements.length;
    if (interrupts) {
      const all = parseLocaleNumber(values[1] ?? "");
      const intr = values[0] === "-1" ? "sum" : (values[0] ?? "").slice(0, MAX_DIM_CHARS);
      if (all === null) skipped++;
      else measurements.push({ metric: "intr/s", value: all, unit: unitFor("intr/s"), dims: { section: "interrupts", time, intr, cpu: "all" } });
      if (values.length > 2) perCpuInterrupts++;
      for (let i = before; i < measurements.length; i++) dayOfRow[i] = days.indexOf(date) + 1;
      continue;
    }
    const dims: Record<string, string> = { section: sectionFor(columns), time };
    columns.forEach((c, i) => {
      const key = KEY_COLUMNS[c] ?? TEXT_COLUMNS[c];
      const text = values[i] ?? "";
      if (key) dims[key] = text === "-1" && MINUS_ONE[c] ? MINUS_ONE[c] : text.slice(0, MAX_DIM_CHARS);
    });
    columns.forEach((c, i) => {
      if (KEY_COLUMNS[c] || TEXT_COLUMNS[c] !== undefined || c.length === 0 || c.length > 64) return;
      const value = parseLocaleNumber(values[i] ?? "");
      if (value === null) return;
      // Old layouts (per-CPU "i000/s" columns, memory+swap in one table) as the text parser files them.
      const old = oldCell(dims.section ?? "", c);
      if (!old) measurements.push({ metric: c, value, unit: unitFor(c), dims: { ...dims } });
      else measurements.push({ metric: old.metric, value, unit: unitFor(old.metric), dims: { ...dims, ...old.dims, ...(old.section ? { section: old.section } : {}) } });
    });
    for (let i = before; i < measurements.length; i++) dayOfRow[i] = days.indexOf(date) + 1;
  }
  if (days.length > 1) measurements.forEach((m, i) => (m.dims.day = dayOfRow[i] ?? 1));
  const warnings: string[] = [];
  if (skipped > 0) warnings.push(`${skipped} sadf row(s) did not match their header and were skipped`);
  if (perCpuInterrupts > 0) {
    warnings.push(`per-CPU interrupt values of ${perCpuInterrupts} sadf -d row(s) were not read (the CSV header does not name the CPUs); their "all" column was`);
  }
  return { measurements, warnings, toolVersion: null };
}
