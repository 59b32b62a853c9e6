// Helpers for the probe tests only (they read files and use fast-check); never import this from
// runtime code, which is bundled into the agent.
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import fc from "fast-check";
import { expect } from "vitest";
import { normalisedResultSchema, TOOL_IDS } from "../catalog";
import type { Measurement, ParseOutcome, Progress, Tool } from "./types";

const PROBES_DIR = path.resolve(__dirname, "..");

export function fixture(tool: Tool, name: string): string {
  return readFileSync(path.join(PROBES_DIR, tool, "fixtures", name), "utf8");
}

export function allFixtures(tools: readonly Tool[] = TOOL_IDS): { name: string; text: string }[] {
  return tools.flatMap((tool) =>
    // Sub-folders hold whole corpora with their own tests (e.g. a tool's upstream test data).
    readdirSync(path.join(PROBES_DIR, tool, "fixtures"), { withFileTypes: true })
      .filter((d) => d.isFile() && !d.name.endsWith(".md"))
      .map((d) => d.name)
      .sort()
      .map((f) => ({ name: `${tool}/${f}`, text: fixture(tool, f) })),
  );
}

export function expectOk(outcome: ParseOutcome): Extract<ParseOutcome, { ok: true }>["result"] {
  if (!outcome.ok) throw new Error(`expected a successful parse, got: ${outcome.error}`);
  return outcome.result;
}

export function expectError(outcome: ParseOutcome): string {
  if (outcome.ok) throw new Error(`expected a failed parse, got ${outcome.result.measurements.length} measurements`);
  return outcome.error;
}

/** The one measurement whose metric and dims match; fails the test when there are 0 or several. */
export function one(measurements: Measurement[], metric: string, dims: Record<string, string | number> = {}): Measurement {
  const hits = measurements.filter(
    (m) => m.metric === metric && Object.entries(dims).every(([k, v]) => m.dims[k] === v),
  );
  if (hits.length !== 1) {
    throw new Error(`expected exactly one ${metric} ${JSON.stringify(dims)}, found ${hits.length}`);
  }
  return hits[0] as Measurement;
}

/** A parse outcome is well-formed: stored results validate and no parser crashed internally. */
export function expectWellFormed(outcome: ParseOutcome, tool: Tool): void {
  if (outcome.ok) {
    const check = normalisedResultSchema.safeParse(outcome.result);
    expect(check.success, check.success ? "" : JSON.stringify(check.error.issues.slice(0, 3))).toBe(true);
    expect(outcome.result.tool).toBe(tool);
  } else {
    expect(typeof outcome.error).toBe("string");
    expect(outcome.error.length).toBeGreaterThan(0);
    expect(outcome.error).not.toMatch(/parser failed unexpectedly/);
  }
}

export function expectValidProgress(progress: Progress | null): void {
  if (progress === null) return;
  expect(Number.isFinite(progress.done)).toBe(true);
  expect(Number.isFinite(progress.total)).toBe(true);
  expect(progress.fraction).toBeGreaterThanOrEqual(0);
  expect(progress.fraction).toBeLessThanOrEqual(1);
  expect(typeof progress.label).toBe("string");
}

/** Random text biased towards the characters the parsers split and match on. */
export function noisyText(): fc.Arbitrary<string> {
  const pieces = fc.constantFrom(
    " ", "  ", "\t", "\n", "\r", "\r\n", ":", ";", ",", ".", "{", "}", "[", "]", "\"", "%", "/s",
    "0", "1", "12", "3.5", "1,2", "e-05", "kB", "KB", "reclen", "Average:", "12:00:01", "AM", "PM",
    "bytes", "copied", "s,", "MB/s", "records in", "Children see throughput for", "=", "report",
    "\"Writer report\"", "DEV", "CPU", "all", "%util", "fio version", "jobs", "\u00a0", "\u202f", "é", "平均时间:",
  );
  return fc.oneof(
    fc.string({ unit: "binary", maxLength: 300 }),
    fc.array(pieces, { maxLength: 120 }).map((a) => a.join("")),
  );
}

/** Every prefix length of short texts; an even sample (plus both ends) of long ones. */
export function prefixLengths(text: string, limit = 3000): number[] {
  if (text.length <= limit) return Array.from({ length: text.length + 1 }, (_, i) => i);
  const step = text.length / limit;
  const out = new Set<number>([0, text.length]);
  for (let i = 0; i < limit; i++) out.add(Math.floor(i * step));
  return [...out].sort((a, b) => a - b);
}
