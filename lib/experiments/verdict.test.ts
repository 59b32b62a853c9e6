import { describe, expect, it } from "vitest";
import { coefficientOfVariation, ratioInterval } from "./ratio-interval";
import { DEFAULT_POLICY, decideNextRound, roundOrder, type RepeatPolicy } from "./schedule";
import { verdict, verdictLine, type HeadlineMetric } from "./verdict";

const write: HeadlineMetric = { metric: "throughput", dims: { direction: "write" }, noun: "write throughput", betterWhen: "higher", verb: "wrote" };
const p99: HeadlineMetric = { metric: "clat_p99", dims: { direction: "read" }, noun: "p99 read latency", betterWhen: "lower" };

describe("ratioInterval (Hodges–Lehmann with the exact Mann–Whitney interval)", () => {
  it("identical samples: ratio 1 and an interval of zero width", () => {
    const r = ratioInterval([100, 100, 100, 100, 100], [100, 100, 100, 100, 100]);
    expect(r).toMatchObject({ ratio: 1, low: 1, high: 1 });
  });

  it("five runs each: the interval is between the 3rd smallest and 3rd largest pairwise ratio, 96.8 % coverage", () => {
    const a = [100, 101, 99, 100.5, 99.5];
    const b = [118, 119, 117, 118.5, 117.5];
    const r = ratioInterval(a, b);
    // The 25 pairwise ratios b/a, sorted: the interval is [3rd, 23rd].
    const ratios = a.flatMap((x) => b.map((y) => y / x)).sort((p, q) => p - q);
    expect(r?.low).toBeCloseTo(ratios[2] as number, 12);
    expect(r?.high).toBeCloseTo(ratios[22] as number, 12);
    expect(r?.ratio).toBeCloseTo(118 / 100, 2);
    expect(r?.confidence).toBeCloseTo(1 - 2 * (4 / 252), 10);
  });

  it("n = 3 per arm: 95 % is out of reach, so it gives the full range at its true 90 %", () => {
    const r = ratioInterval([10, 11, 12], [20, 21, 22]);
    expect(r?.confidence).toBeCloseTo(0.9, 10);
    expect(r?.low).toBeCloseTo(20 / 12, 12);
    expect(r?.high).toBeCloseTo(22 / 10, 12);
  });

  it("one outlier moves the estimate little, unlike a ratio of means", () => {
    const a = [100, 100, 101, 99, 100, 100];
    const b = [110, 111, 109, 110, 110, 400];
    const r = ratioInterval(a, b);
    expect(r?.ratio).toBeGreaterThan(1.09);
    expect(r?.ratio).toBeLessThan(1.12);
    const meanRatio = b.reduce((s, x) => s + x, 0) / a.reduce((s, x) => s + x, 0);
    expect(meanRatio).toBeGreaterThan(1.5);
  });

  it("refuses what it cannot compute", () => {
    expect(ratioInterval([], [1])).toBeNull();
    expect(ratioInterval([0, 1], [1, 2])).toBeNull();
    expect(coefficientOfVariation([5])).toBeNull();
    expect(coefficientOfVariation([2, 4, 4, 4, 5, 5, 7, 9])).toBeCloseTo(2.138 / 5, 3);
  });
});

describe("verdict sentences", () => {
  it("says how much faster, with the interval and the runs", () => {
    const line = verdictLine(write, { label: "ext4", values: [100, 101, 99, 100.5, 99.5] }, { label: "xfs", values: [118, 119, 117, 118.5, 117.5] });
    expect(line?.better).toBe(true);
    expect(line?.sentence).toMatch(/^xfs wrote 18 % faster than ext4 \(97 % CI 16–20 %, 5 runs each\)\.$/);
  });

  it("says there is no detectable difference when the interval spans no change", () => {
    const line = verdictLine(write, { label: "ext4", values: [100, 103, 97, 101, 99] }, { label: "ext3", values: [101, 98, 102, 100, 99] });
    expect(line?.better).toBeNull();
    // The estimate is within ±1 % of no change: the sentence bounds the difference instead of asking for runs.
    expect(line).toMatchObject({ state: "no-difference-detected", runsNeeded: null });
    expect(line?.sentence).toMatch(/^No difference in write throughput between ext3 and ext4 larger than ±\d\.\d % at this precision \(97 % CI −\d(\.\d)? to \+\d(\.\d)? %, 5 runs each\)\.$/);
  });

  it("lower is better for latency", () => {
    const [line] = verdict(p99, [
      { label: "mq-deadline", values: [2.0, 2.1, 1.9, 2.0] },
      { label: "none", values: [1.5, 1.6, 1.4, 1.5] },
    ]);
    expect(line?.better).toBe(true);
    expect(line?.sentence).toMatch(/^none had 25 % lower p99 read latency than mq-deadline/);
  });
});

describe("repeat schedule", () => {
  it("interleaves arms A B, B A and keeps randomised blocks reproducible", () => {
    expect([0, 1, 2, 3].map((r) => roundOrder(2, r, "abba"))).toEqual([[0, 1], [1, 0], [0, 1], [1, 0]]);
    const shuffled = roundOrder(4, 3, "random", 42);
    expect([...shuffled].sort()).toEqual([0, 1, 2, 3]);
    expect(roundOrder(4, 3, "random", 42)).toEqual(shuffled);
  });

  it("stop cv: runs min valid rounds, adds rounds while an arm is noisy, stops at max and says which", () => {
    const cv: RepeatPolicy = { ...DEFAULT_POLICY, min: 3, stop: "cv", warmup: false, budgetMin: null };
    const stable = [{ label: "a", values: [100, 101, 100] }, { label: "b", values: [50, 50.5, 50] }];
    const noisy = [{ label: "a", values: [100, 101, 100] }, { label: "b", values: [50, 70, 40] }];
    const at = (series: typeof stable, n: number) => ({ halfWidths: [], validPerArm: n, roundsDone: n, minutesElapsed: 1, series });
    expect(decideNextRound(cv, at(stable, 2))).toEqual({ more: true, reason: "min" });
    expect(decideNextRound(cv, at(stable, 3))).toMatchObject({ more: false, reason: "stable" });
    expect(decideNextRound(cv, at(noisy, 3))).toEqual({ more: true, reason: "unstable" });
    const end = decideNextRound(cv, at(noisy, 10));
    expect(end).toMatchObject({ more: false, reason: "max" });
    expect(end.more === false && end.message).toMatch(/^Stopped at the maximum of 10 rounds: b still varies by \d+\.\d %, above the 2\.5 % target/);
  });
});
