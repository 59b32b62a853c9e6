import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseIozone } from "./parse";
import { iozoneProgress } from "./progress-series";

const log = fs.readFileSync(path.join(import.meta.dirname, "../../e2e/probes/iozone-auto-64m.txt"), "utf8");

describe("iozone progress over time", () => {
  it("places each test at the end of the time it took (file size ÷ throughput), in table order", () => {
    const parsed = parseIozone(log);
    if (!parsed.ok) throw new Error(parsed.error);
    const series = iozoneProgress(parsed.result, log);
    const write = series.find((s) => s.key === "iozone.write");
    expect(write?.unit).toBe("MiB/s");
    // First cell: 64 MiB written at 1527924 KiB/s.
    expect(write?.points[0]?.t).toBeCloseTo(65536 / 1527924, 3);
    expect(write?.points[0]?.v).toBeCloseTo(1527924 / 1024, 3);
    const rewrite = series.find((s) => s.key === "iozone.rewrite");
    expect(rewrite!.points[0]!.t).toBeCloseTo(65536 / 1527924 + 65536 / 4242086, 3);
    const all = series.flatMap((s) => s.points.map((p) => p.t)).sort((a, b) => a - b);
    expect(all).toHaveLength(parsed.result.measurements.length);
  });

  it("reads the cells printed so far from the log while the run goes on", () => {
    const partial = log.slice(0, log.indexOf("65536      16"));
    const series = iozoneProgress(null, partial);
    expect(series.find((s) => s.key === "iozone.write")?.points.length).toBeGreaterThanOrEqual(2);
  });
});
