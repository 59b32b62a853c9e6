import { parseLocaleNumber } from "../core/number";
import { MAX_METRIC_CHARS } from "../core/limits";
import type { Measurement } from "../core/types";

// Throughput mode (-t N) prints, per test:
//   Children see throughput for  2 initial writers  =  5272683.12 kB/sec
//   Parent sees throughput for  2 initial writers   =  1966041.77 kB/sec
// "Children see" is the sum of what each process measured, the figure iozone's docs and the
// -R report use; "Parent sees" includes process start-up skew and is left out.
// With -O (OPS mode) the same lines end in "ops/sec".
const CHILDREN_RE = /Children see throughput for\s+(\d+)\s+(.+?)\s*=\s*([\d.,eE+-]+)\s*([kKmM]?B|ops)\/sec/;

const UNIT_FACTOR: Record<string, number> = { kb: 1, mb: 1024, b: 1 / 1024, ops: 1 };

/** "initial writers" → "throughput_initial_writers", "re-readers" → "throughput_re_readers". */
export function throughputMetric(testName: string): string {
  const snake = testName.toLowerCase().replace(/[^a-z0-9]+/g, "_").replace(/^_+|_+$/g, "");
  return `throughput_${snake || "unknown"}`;
}

export function parseThroughput(lines: string[]): { measurements: Measurement[]; lines: number } {
  const measurements: Measurement[] = [];
  let count = 0;
  for (const line of lines) {
    const m = CHILDREN_RE.exec(line);
    if (!m) continue;
    const processes = Number(m[1]);
    const value = parseLocaleNumber(m[3] ?? "");
    const factor = UNIT_FACTOR[(m[4] ?? "kB").toLowerCase()] ?? 1;
    const metric = throughputMetric(m[2] ?? "");
    if (value === null || !Number.isFinite(processes) || metric.length > MAX_METRIC_CHARS) continue;
    count++;
    measurements.push({
      metric,
      value: value * factor,
      unit: m[4] === "ops" ? "1/s" : "KiB/s",
      dims: { processes },
    });
  }
  return { measurements, lines: count };
}
