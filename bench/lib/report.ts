// The figures as a table (figure, value, target, verdict) and as JSON. A missed target is a
// finding, not a failure: the verdict is printed, the exit code only reflects errors.
import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

export interface Row {
  figure: string;
  value: string;
  /** Human-readable target, or "" for a figure reported for information. */
  target: string;
  pass: boolean | null;
}

export interface Machine {
  vcpus: number;
  cpuModel: string;
  memGiB: number;
  kernel: string;
  node: string;
}

export function describeMachine(): Machine {
  let vcpus = os.availableParallelism();
  try {
    vcpus = Number(execFileSync("nproc", { encoding: "utf8" }).trim()) || vcpus;
  } catch {
    // nproc is coreutils; os.availableParallelism() is the same count
  }
  return {
    vcpus,
    cpuModel: os.cpus()[0]?.model.trim() ?? "unknown",
    // What `free` calls total: MemTotal from /proc/meminfo, as os.totalmem() reads it.
    memGiB: Math.round((os.totalmem() / 2 ** 30) * 10) / 10,
    kernel: os.release(),
    node: process.version,
  };
}

export const ms = (x: number) => (Number.isFinite(x) ? (x < 10 ? x.toFixed(1) : x.toFixed(0)) : "—");

export function renderTable(title: string, rows: Row[]): string {
  const head: Row = { figure: "figure", value: "value", target: "target", pass: null };
  const cells = [head, ...rows].map((r) => [r.figure, r.value, r.target || "(info)", r === head ? "verdict" : r.pass === null ? "" : r.pass ? "PASS" : "FAIL"]);
  const widths = [0, 1, 2].map((c) => Math.max(...cells.map((row) => row[c]!.length)));
  const line = (row: string[]) => row.map((cell, c) => (c < 3 ? cell.padEnd(widths[c]!) : cell)).join("  ").trimEnd();
  const rule = "-".repeat(widths.reduce((a, b) => a + b + 2, 0) + 7);
  return [title, rule, line(cells[0]!), rule, ...cells.slice(1).map(line), rule].join("\n");
}

export function writeJson(file: string, value: unknown): void {
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, `${JSON.stringify(value, null, 2)}\n`);
}

/** One figure measured once per column (transport): each cell its value and verdict. */
export interface CompareRow {
  figure: string;
  target: string;
  cells: Record<string, { value: string; pass: boolean | null } | undefined>;
}

/** The figures side by side, one column per transport, with the target and each column's verdict. */
export function renderCompareTable(title: string, columns: string[], rows: CompareRow[]): string {
  const verdict = (r: CompareRow) =>
    columns
      .map((c) => (r.cells[c]?.pass === undefined || r.cells[c]?.pass === null ? null : `${c} ${r.cells[c]!.pass ? "PASS" : "MISS"}`))
      .filter(Boolean)
      .join(", ");
  const cells = [
    ["figure", ...columns, "target", "verdict"],
    ...rows.map((r) => [r.figure, ...columns.map((c) => r.cells[c]?.value ?? "—"), r.target || "(info)", verdict(r)]),
  ];
  const n = columns.length + 2;
  const widths = Array.from({ length: n }, (_, c) => Math.max(...cells.map((row) => row[c]!.length)));
  const line = (row: string[]) => row.map((cell, c) => (c < n ? cell.padEnd(widths[c]!) : cell)).join("  ").trimEnd();
  const rule = "-".repeat(widths.reduce((a, b) => a + b + 2, 0) + 20);
  return [title, rule, line(cells[0]!), rule, ...cells.slice(1).map(line), rule].join("\n");
}
