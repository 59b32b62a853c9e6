import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { parseOutput } from "../catalog";
import type { NormalisedResult } from "../core/types";
import { bucketPoints, bucketWidth, elapsedSeconds, pickDevice, sarSeries, secondsOfDay, VM_EFFICIENCY, vmEfficiency } from "./series";

const fixture = (name: string): NormalisedResult => {
  const r = parseOutput("sar", fs.readFileSync(path.join(__dirname, "../../probes/sar/fixtures", name), "utf8"));
  if (!r.ok) throw new Error(r.error);
  return r.result;
};

describe("vmEfficiency", () => {
  it("is 100 × pgsteal ÷ (pgscank + pgscand)", () => {
    expect(vmEfficiency(2304, 2048, 512)).toBe(90);
    expect(vmEfficiency(50, 100, 0)).toBe(50);
    expect(vmEfficiency(0, 0, 10)).toBe(0);
  });
  it("is undefined (null) when nothing was scanned", () => {
    expect(vmEfficiency(0, 0, 0)).toBeNull();
  });
});

describe("elapsed time", () => {
  it("reads HH:MM:SS", () => {
    expect(secondsOfDay("00:00:00")).toBe(0);
    expect(secondsOfDay("12:28:11")).toBe(12 * 3600 + 28 * 60 + 11);
    expect(secondsOfDay("average")).toBeNull();
  });
  it("counts seconds since the first sample and crosses midnight", () => {
    const e = elapsedSeconds(["23:59:58", "23:59:59", "00:00:00", "00:00:02", "23:59:59"]);
    expect([...e.entries()]).toEqual([
      ["23:59:58", 0],
      ["23:59:59", 1],
      ["00:00:00", 2],
      ["00:00:02", 4],
    ]);
  });
});

describe("sarSeries", () => {
  it("computes vm efficiency where sysstat ≥ 12.7.5 no longer prints it", () => {
    const s = sarSeries(fixture("hand-sar-12.7.5-B-novmeff.txt"), null);
    expect(s.samples).toBe(2);
    expect(s.points[VM_EFFICIENCY]).toEqual([
      { t: 0, v: 90 },
      { t: 1, v: null },
    ]);
    // Σsteal ÷ Σscan over the run: 2304 ÷ 2560
    expect(s.summary[VM_EFFICIENCY]).toBeCloseTo(90, 10);
    expect(s.points["pgscank/s"]).toEqual([
      { t: 0, v: 2048 },
      { t: 1, v: 0 },
    ]);
    expect(s.summary["majflt/s"]).toBe(1.5);
  });
  it("takes paging, memory, the target disk and CPU 'all' from a full report, on elapsed seconds", () => {
    const s = sarSeries(fixture("gen-sar-B-d-r-u.txt"), "vda");
    expect(s.device).toBe("vda");
    expect(s.points["%util"]?.map((p) => p.t)).toEqual([0, 1]);
    expect(s.points["%util"]?.[1]?.v).toBe(0.4);
    expect(s.points.kbdirty?.[0]).toEqual({ t: 0, v: 132 });
    expect(s.points["%iowait"]).toHaveLength(2);
    // Nothing scanned in that run: no vm efficiency points with a value, no summary.
    expect(s.points[VM_EFFICIENCY]?.every((p) => p.v === null)).toBe(true);
    expect(s.summary[VM_EFFICIENCY]).toBeNull();
  });
  it("falls back to the busiest device when the target's is not in the report", () => {
    const dims = (device: string, time: string) => ({ section: "disk", device, time });
    const ms = [
      { metric: "%util", value: 1, unit: "%", dims: dims("sda", "10:00:00") },
      { metric: "%util", value: 80, unit: "%", dims: dims("dev253-0", "10:00:00") },
    ];
    expect(pickDevice(ms, "vda")).toBe("dev253-0");
    expect(pickDevice(ms, "sda")).toBe("sda");
    expect(pickDevice([], "sda")).toBeNull();
  });
});

describe("long runs", () => {
  it("keep at most 600 points per line, averaged in buckets that line up across runs", () => {
    expect(bucketWidth(599)).toBe(1);
    expect(bucketWidth(600)).toBe(2);
    expect(bucketWidth(3599)).toBe(6);
    const pts = [
      { t: 0, v: 1 },
      { t: 1, v: 3 },
      { t: 2, v: null },
      { t: 3, v: 5 },
      { t: 4, v: null },
      { t: 5, v: null },
    ];
    expect(bucketPoints(pts, 2)).toEqual([
      { t: 0, v: 2 },
      { t: 2, v: 5 },
      { t: 4, v: null },
    ]);
    expect(bucketPoints(pts, 1)).toEqual(pts);
  });
});
