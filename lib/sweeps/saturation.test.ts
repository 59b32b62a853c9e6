import { describe, expect, it } from "vitest";
import { gridPoints, interleavedOrder, loadOf } from "./grid";
import { computeSaturation, latencyText, iopsText, SATURATION_RULE } from "./saturation";

const pt = (iodepth: number, numjobs: number, iops: number, p99Us: number, blockSizeKiB = 4) => ({ iodepth, numjobs, blockSizeKiB, iops, latP99Ns: p99Us * 1000 });

describe("saturation", () => {
  it("positive control: IOPS flatten while p99 jumps past QD 16 × 1 job", () => {
    const s = computeSaturation([pt(1, 1, 10_000, 150), pt(4, 1, 38_000, 180), pt(16, 1, 92_000, 1_900), pt(64, 1, 93_000, 7_500)]);
    expect(s.point).toEqual({ iodepth: 16, numjobs: 1, blockSizeKiB: 4 });
    expect(s.sentence).toBe("This device saturates at QD 16 × 1 job: 92 k IOPS at p99 1.9 ms.");
    expect(s.rule).toBe(SATURATION_RULE);
    expect(s.rule).toMatch(/less than 5 %.*more than 50 %/);
    expect(s.perCurve).toEqual([{ numjobs: 1, blockSizeKiB: 4, iodepth: 16 }]);
  });

  it("negative control: IOPS still grow, so no saturation, and the sentence says by how much", () => {
    const s = computeSaturation([pt(1, 1, 10_000, 150), pt(4, 1, 30_000, 200), pt(16, 1, 60_000, 400)]);
    expect(s.point).toBeNull();
    expect(s.sentence).toBe("No saturation within the grid: IOPS still grew 100 % from QD 4 × 1 job (30 k) to QD 16 × 1 job (60 k), p99 200 µs to 400 µs.");
    expect(s.perCurve).toEqual([{ numjobs: 1, blockSizeKiB: 4, iodepth: null }]);
  });

  it("negative controls: flat IOPS with flat latency, and rising latency with rising IOPS, are not saturation", () => {
    expect(computeSaturation([pt(1, 1, 50_000, 100), pt(4, 1, 50_500, 110)]).point).toBeNull();
    expect(computeSaturation([pt(1, 1, 50_000, 100), pt(4, 1, 70_000, 400)]).point).toBeNull();
  });

  it("over the whole grid, loads order the points (iodepth × numjobs); each job count is its own curve", () => {
    const points = [
      pt(1, 1, 10_000, 100), pt(4, 1, 35_000, 120), pt(16, 1, 80_000, 250),
      pt(1, 4, 38_000, 110), pt(4, 4, 90_000, 600), pt(16, 4, 92_000, 2_400),
    ];
    const s = computeSaturation(points);
    // Loads 1, 4, 16, 64: at load 4, 4 × 1 (35 k) and 1 × 4 (38 k) compete; the 16 → 64 step gains 2 % at 4 × the p99.
    expect(s.point).toEqual({ iodepth: 4, numjobs: 4, blockSizeKiB: 4 });
    expect(s.sentence).toBe("This device saturates at QD 4 × 4 jobs: 90 k IOPS at p99 600 µs.");
    expect(s.perCurve).toEqual([{ numjobs: 1, blockSizeKiB: 4, iodepth: null }, { numjobs: 4, blockSizeKiB: 4, iodepth: 4 }]);
  });

  it("with fewer than two finished loads it says so", () => {
    expect(computeSaturation([pt(1, 1, 10_000, 100)]).sentence).toMatch(/^Not enough finished points/);
    expect(computeSaturation([]).point).toBeNull();
  });

  it("writes figures as a reader would", () => {
    expect([iopsText(830.4), iopsText(92_400), iopsText(1_230_000), iopsText(250_000)]).toEqual(["830", "92 k", "1.2 M", "250 k"]);
    expect([latencyText(800), latencyText(240_000), latencyText(1_900_000)]).toEqual(["800 ns", "240 µs", "1.9 ms"]);
  });
});

describe("interleaved order", () => {
  const grid = { iodepths: [1, 4, 16], numjobs: [1, 2, 4], blockSizesKiB: [4] };
  const points = gridPoints(grid);

  it("runs every point once, not in ascending load", () => {
    const order = interleavedOrder(points);
    expect([...order].sort((a, b) => a - b)).toEqual(points.map((_, i) => i));
    const loads = order.map((i) => loadOf(points[i]!));
    expect(loads).not.toEqual([...loads].sort((a, b) => a - b));
    expect(loads).toEqual([1, 64, 8, 4, 16, 2, 16, 4, 32]);
  });

  it("light and heavy loads alike in each half of the sweep: load and time barely correlate", () => {
    for (const g of [grid, { iodepths: [1, 2, 4, 8, 16, 32, 64], numjobs: [1, 2, 4, 8, 16, 32, 64], blockSizesKiB: [4] }]) {
      const ps = gridPoints(g);
      const rank = new Map(ps.map((p, i) => [i, loadOf(p)]));
      const order = interleavedOrder(ps).map((i) => rank.get(i)!);
      const n = order.length;
      const mean = (xs: number[]) => xs.reduce((s, x) => s + x, 0) / xs.length;
      const t = order.map((_, i) => i);
      const r = (xs: number[], ys: number[]) => {
        const mx = mean(xs), my = mean(ys);
        const cov = xs.reduce((s, x, i) => s + (x - mx) * (ys[i]! - my), 0);
        return cov / Math.sqrt(xs.reduce((s, x) => s + (x - mx) ** 2, 0) * ys.reduce((s, y) => s + (y - my) ** 2, 0));
      };
      const ranks = order.map((l) => order.filter((x) => x < l).length);
      expect(Math.abs(r(t, ranks)), `${n} points`).toBeLessThan(0.3);
      // Ascending order, the thing avoided, correlates fully.
      expect(r(t, t)).toBeCloseTo(1);
    }
  });
});
