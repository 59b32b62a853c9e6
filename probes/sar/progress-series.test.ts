import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseOutput } from "../catalog";
import { sarProgress } from "./progress-series";

describe("sar progress over time", () => {
  it("draws util, iowait, dirty and direct scanning on seconds since the first sample", () => {
    const parsed = parseOutput("sar", fs.readFileSync(path.join(import.meta.dirname, "fixtures", "sadf-B-d-r-u.json"), "utf8"));
    if (!parsed.ok) throw new Error(parsed.error);
    const series = sarProgress(parsed.result, "");
    expect(series.map((s) => s.key).sort()).toEqual(["sar.%iowait", "sar.%util", "sar.kbdirty", "sar.pgscand/s"]);
    const iowait = series.find((s) => s.key === "sar.%iowait")!;
    expect(iowait.points[0]?.t).toBe(0);
    const stored = parsed.result.measurements.filter((m) => m.metric === "%iowait" && m.dims.cpu === "all" && m.dims.time !== "average");
    expect(iowait.points.map((p) => p.v)).toEqual(stored.map((m) => m.value));
  });
});
