import { failure, guardParse, success } from "../core/probe";
import { clip, splitLines } from "../core/text";
import type { Measurement, ParseOutcome } from "../core/types";
import { HEADER_RE, parseAutoTables } from "./auto-table";
import { parseExcelReports } from "./excel-report";
import { parseThroughput } from "./throughput";

const VERSION_RE = /Version \$Revision:\s*([\d.]+)\s*\$/;

// Lines iozone prints when it gives up: "Can not open temp file: /x/iozone.tmp" followed by
// perror's "open: No such file or directory", "Error writing block 12, fd= 3", …
const ERROR_RES: RegExp[] = [
  /^\s*Can ?not open .*$/i,
  /^\s*Error (?:writing|reading|in|opening|creating).*$/i,
  /^\s*(?:open|read|write|fsync|mmap|lseek|unlink|malloc|shmget|fork)\S*: .+$/,
  /^\s*iozone: .*(?:interrupted|killed|error|exiting).*$/i,
  /^\s*.*\b(?:No space left on device|Permission denied|Read-only file system)\b.*$/,
];

function errorLines(lines: string[]): string[] {
  return lines.filter((l) => ERROR_RES.some((re) => re.test(l))).map((l) => l.trim());
}

function describeFailure(errors: string[]): string {
  const open = errors.find((l) => /Can ?not open temp file/i.test(l));
  const reason = errors.find((l) => /^\w+: /.test(l) && !/Can ?not/i.test(l));
  if (open) {
    const path = open.replace(/^.*?temp file:?\s*/i, "");
    const why = reason ? reason.replace(/^\w+:\s*/, "") : "unknown reason";
    return `iozone could not open its test file ${clip(path, 300)}: ${why}`;
  }
  return `iozone failed: ${clip(errors.join("; "), 400)}`;
}

function key(m: Measurement): string {
  return `${m.metric}|${m.dims.file_kib}|${m.dims.record_kib}`;
}

export const parseIozone = guardParse("iozone", (output: string): ParseOutcome => {
  const lines = splitLines(output);
  const version = VERSION_RE.exec(output)?.[1] ?? null;
  const auto = parseAutoTables(lines);
  const excel = parseExcelReports(lines);
  const throughput = parseThroughput(lines);
  const warnings = [...auto.warnings, ...excel.warnings];

  // The -R section repeats the auto table: take the table's cells and only add what the table
  // lacks (e.g. a table cut off by a copy/paste but a complete report).
  const measurements: Measurement[] = [...auto.measurements];
  const seen = new Set(auto.measurements.map(key));
  for (const m of excel.measurements) {
    if (seen.has(key(m))) continue;
    seen.add(key(m));
    measurements.push(m);
  }
  measurements.push(...throughput.measurements);
  // -O prints operations per second in the same table layout.
  if (/Output is in operations per second/i.test(output)) {
    for (const m of measurements) m.unit = "1/s";
    warnings.push("iozone ran in OPS mode (-O): values are operations per second, not KiB/s");
  }

  const looksLikeIozone =
    measurements.length > 0 || version !== null || /Iozone: Performance Test/i.test(output) || lines.some((l) => HEADER_RE.test(l));
  if (!looksLikeIozone) return failure("not iozone output: no result table found");
  const errors = errorLines(lines);
  if (measurements.length === 0) {
    if (errors.length > 0) return failure(describeFailure(errors));
    return failure("iozone output has no results: the run ended before the first row was printed");
  }
  if (errors.length > 0) warnings.push(`iozone stopped early, results are partial: ${describeFailure(errors)}`);
  if (!/iozone test complete/i.test(output) && errors.length === 0) {
    warnings.push("iozone did not print \"iozone test complete\": the output may be truncated");
  }
  const parts = [
    auto.measurements.length > 0 ? "auto table" : null,
    excel.measurements.length > 0 ? "-R report" : null,
    throughput.measurements.length > 0 ? "-t throughput" : null,
  ].filter((p): p is string => p !== null);
  return success("iozone", version, measurements, warnings, `iozone ${parts.join(" + ")}`);
});
