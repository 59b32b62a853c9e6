import { describe, expect, it } from "vitest";
import { deltaPercent, formatDelta, median, summarise } from "./stats";

describe("median", () => {
  it("takes the middle value, or the mean of the two middle ones", () => {
    expect(median([3, 1, 2])).toBe(2);
    expect(median([4, 1, 3, 2])).toBe(2.5);
    expect(median([7])).toBe(7);
    expect(median([])).toBeNaN();
  });
  it("does not reorder its input", () => {
    const v = [3, 1, 2];
    median(v);
    expect(v).toEqual([3, 1, 2]);
  });
});

describe("summarise (repeat folding statistics)", () => {
  it("gives median, min, max, mean and the sample CV", () => {
    // mean 100, sample sd = sqrt(((−10)² + 0² + 10²) / 2) = 10 → CV 10 %
    const s = summarise([90, 100, 110]);
    expect(s).toMatchObject({ n: 3, median: 100, min: 90, max: 110, mean: 100 });
    expect(s.cv).toBeCloseTo(10, 10);
  });
  it("has no CV for a single run or a zero mean", () => {
    expect(summarise([42]).cv).toBeNull();
    expect(summarise([-1, 1]).cv).toBeNull();
  });
  it("CV of identical repeats is 0", () => {
    expect(summarise([5, 5, 5, 5]).cv).toBe(0);
  });
  it("uses |mean| so a negative quantity has a positive CV", () => {
    expect(summarise([-90, -110]).cv).toBeCloseTo((Math.SQRT2 * 10 / 100) * 100, 10);
  });
  it("refuses an empty list", () => {
    expect(() => summarise([])).toThrow();
  });
});

describe("deltaPercent", () => {
  it("is (value − baseline) ÷ baseline × 100", () => {
    expect(deltaPercent(110, 100)).toBeCloseTo(10, 12);
    expect(deltaPercent(50, 200)).toBeCloseTo(-75, 12);
    expect(deltaPercent(100, 100)).toBe(0);
  });
  it("is null without a baseline or against zero", () => {
    expect(deltaPercent(5, 0)).toBeNull();
    expect(deltaPercent(5, undefined)).toBeNull();
    expect(deltaPercent(null, 5)).toBeNull();
  });
  it("divides by |baseline| so a larger value is always a positive change", () => {
    expect(deltaPercent(-50, -100)).toBeCloseTo(50, 12);
  });
  it("formats with sign and one decimal", () => {
    expect(formatDelta(12.345)).toBe("+12.3 %");
    expect(formatDelta(-4)).toBe("−4.0 %");
    expect(formatDelta(0.01)).toBe("±0 %");
    expect(formatDelta(null)).toBe("—");
  });
});

describe("axis ticks", async () => {
  const { niceTicks } = await import("./ticks");
  it("covers the range with round 1-2-5 steps from zero", () => {
    expect(niceTicks(0, 7800)).toEqual([0, 2000, 4000, 6000, 8000]);
    expect(niceTicks(0, 38_000)).toEqual([0, 10_000, 20_000, 30_000, 40_000]);
    expect(niceTicks(0, 0.9)).toEqual([0, 0.2, 0.4, 0.6, 0.8, 1]);
  });
  it("gives integer steps for elapsed seconds and survives an empty range", () => {
    expect(niceTicks(0, 4, 5, true)).toEqual([0, 1, 2, 3, 4]);
    expect(niceTicks(0, 0)).toEqual([0, 0.2, 0.4, 0.6, 0.8, 1]);
  });
});
