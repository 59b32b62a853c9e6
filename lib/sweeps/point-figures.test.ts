import { describe, expect, it } from "vitest";
import { expectOk, fixture } from "../../probes/core/testing";
import { parseFio } from "../../probes/fio/parse";
import { mixedPercentile, pointFigures } from "./point-figures";

const ms = (name: string) => expectOk(parseFio(fixture("fio", name))).measurements;
const one = (list: ReturnType<typeof ms>, metric: string, direction: string) => list.find((m) => m.metric === metric && m.dims.direction === direction)!.value;

describe("a point's figures from fio's measurements", () => {
  it("a read-only job: its read IOPS and percentiles exactly, the unused write side left out", () => {
    const m = ms("fio-3.33-steadystate.json");
    const f = pointFigures(m);
    expect(f.iops).toBe(one(m, "iops", "read"));
    expect(f.latP99Ns).toBe(one(m, "clat_p99", "read"));
    expect(f.latP50Ns).toBe(one(m, "clat_p50", "read"));
    expect(f.latP999Ns).toBe(one(m, "clat_p99.9", "read"));
    expect(f.runtimeSec).toBe(3.632);
  });

  it("a 70/30 mix: totals over reads and writes, the p99 between the two sides' and weighted by their I/O", () => {
    const m = ms("fio-3.33-randrw-libaio.json");
    const f = pointFigures(m);
    expect(f.iops).toBeCloseTo(one(m, "iops", "read") + one(m, "iops", "write"), 6);
    expect(f.bandwidthBps).toBe(one(m, "bw", "read") + one(m, "bw", "write"));
    const [r, w] = [one(m, "clat_p99", "read"), one(m, "clat_p99", "write")];
    expect(f.latP99Ns).toBeGreaterThanOrEqual(Math.min(r, w));
    expect(f.latP99Ns).toBeLessThanOrEqual(Math.max(r, w));
  });

  it("merges CDFs: equal weights of two sides meet in the middle; a side with no I/O does not count", () => {
    const side = (ns: number[]) => [50, 90, 99].map((p, i) => ({ p, ns: ns[i]! }));
    // At 100 ns: half of one side's I/O and 99 % of the other's, F(100) = 0.5·50 + 0.5·99 = 74.5 %; at 200 ns 94.5 %.
    const two = [{ weight: 1, points: side([100, 200, 300]) }, { weight: 1, points: side([10, 20, 30]) }];
    expect(mixedPercentile(two, 74.5)).toBe(100);
    expect(mixedPercentile(two, 75)).toBe(200);
    expect(mixedPercentile([{ weight: 1, points: side([100, 200, 300]) }, { weight: 0, points: side([10, 20, 30]) }], 99)).toBe(300);
    expect(mixedPercentile([], 99)).toBeNull();
  });
});
