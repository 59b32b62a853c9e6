import { describe, expect, it } from "vitest";
import { chartRows, curves, flagKey, curveSeries, fmtIops, fmtLatUs, heatColor, heatRows, logTicks, progressCounts, sweepDifferences, sweepShortNames } from "./sweep-chart-data";
import { sampleSweep } from "./sample-view";
import { steadyText, workloadText } from "./sweep-text";

describe("sweep chart data", () => {
  it("makes one curve per job count, points by iodepth, with each curve's saturation depth", () => {
    const cs = curves(sampleSweep());
    expect(cs.map((c) => c.name)).toEqual(["1 job", "2 jobs", "4 jobs"]);
    expect(cs.map((c) => c.points.map((p) => p.iodepth))).toEqual([[1, 4, 16], [1, 4, 16], [1, 4, 16]]);
    expect(cs.map((c) => c.saturatedAt)).toEqual([null, 16, 4]);
  });

  it("names curves by block size too when the block size is swept", () => {
    const v = sampleSweep();
    v.grid.blockSizesKiB = [4, 64];
    v.points.push(...v.points.map((p) => ({ ...p, blockSizeKiB: 64 })));
    expect(curves(v).map((c) => c.name)).toContain("4 jobs · 64 KiB");
    expect(curves(v)).toHaveLength(6);
  });

  it("draws points with figures, a flagged one marked; a running point leaves a gap, not a zero", () => {
    const v = sampleSweep();
    const rows = chartRows(v.grid.iodepths, curveSeries(curves(v), "iops"));
    expect(rows.map((r) => r.qd)).toEqual([1, 4, 16]);
    expect(rows[1]!.j1_b4).toBeGreaterThan(0); // QD 4 × 1 is invalid: drawn, flagged
    expect(rows[1]![flagKey("j1_b4")]).toBe(1);
    expect(rows[1]![flagKey("j2_b4")]).toBe(0);
    expect(rows[2]!.j4_b4).toBeNull(); // QD 16 × 4 still runs
    expect(rows[2]!.j2_b4).toBeGreaterThan(rows[0]!.j2_b4!);
  });

  it("leaves non-positive values off a log axis", () => {
    const rows = chartRows([1, 2], [{ key: "p99", value: (qd) => (qd === 1 ? 0 : 120) }], true);
    expect(rows.map((r) => r.p99)).toEqual([null, 120]);
  });

  it("puts log ticks on whole decades around the data", () => {
    expect(logTicks([85, 1900, 7600])).toEqual([10, 100, 1000, 10000]);
    expect(logTicks([200, 300])).toEqual([100, 1000]);
    expect(logTicks([0.5, 3])).toEqual([0.1, 1, 10]);
    expect(logTicks([])).toEqual([]);
  });

  it("formats IOPS and latency the way fio-plot labels them", () => {
    expect(fmtIops(92_400)).toBe("92.4 k");
    expect(fmtIops(1_250_000)).toBe("1.3 M");
    expect(fmtIops(812)).toBe("812");
    expect(fmtLatUs(85)).toBe("85 µs");
    expect(fmtLatUs(1900)).toBe("1.9 ms");
    expect(fmtLatUs(3.25)).toBe("3.3 µs");
  });

  it("lays the heatmap out jobs down (largest first) and depths across, with the figures as words", () => {
    const rows = heatRows(sampleSweep(), 4);
    expect(rows.map((r) => r[0]!.numjobs)).toEqual([4, 2, 1]);
    expect(rows.flat()).toHaveLength(9);
    const best = rows.flat().filter((c) => c.level === 1);
    expect(best[0]!.numjobs).toBe(2);
    expect(best).toHaveLength(1);
    expect(rows[1]![2]!.text).toMatch(/^QD 16 × 2 jobs: \d+\.\d k IOPS, p99 \d/);
    expect(rows[2]![1]!.text).toMatch(/^QD 4 × 1 job: [\d.]+ k IOPS, p99 [\d.]+ µs, not counted \(Too short to count \(< 5 s\)\)$/);
    expect(rows[0]![2]!.level).toBeNull();
  });

  it("keeps heat colours readable at both ends", () => {
    expect(heatColor(0)).toEqual({ bg: "rgb(22,50,90)", fg: "#e6edf3" });
    expect(heatColor(1)).toEqual({ bg: "rgb(242,204,96)", fg: "#0f1419" });
  });

  it("counts points by status", () => {
    expect(progressCounts(sampleSweep())).toEqual({ total: 9, ended: 8, running: 1, done: 7, problems: 1 });
  });

  it("names only what differs between two sweeps", () => {
    const a = sampleSweep();
    const b = sampleSweep();
    b.hostLabel = "db-2";
    b.fioVersion = "fio-3.36";
    expect(sweepDifferences(a, b)).toEqual([
      { label: "host", a: "db-1", b: "db-2" },
      { label: "fio", a: "fio-3.33", b: "fio-3.36" },
    ]);
    expect(sweepShortNames(a, b)).toEqual(["A: db-1", "B: db-2"]);
    expect(sweepShortNames(a, sampleSweep())).toEqual([`A: ${a.title}`, `B: ${a.title}`]);
  });

  it("says the workload and the steady-state rule in words", () => {
    const v = sampleSweep();
    expect(workloadText(v)).toBe("randread, 4 KiB, libaio, direct, 1024 MiB file, 30 s points");
    expect(steadyText(v.workload.steadyState)).toBe("A point ends early once IOPS within 5 % of the mean over 10 s (after a 2 s ramp) (fio's steadystate).");
    expect(steadyText(null)).toMatch(/off/);
  });
});
