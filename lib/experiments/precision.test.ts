import { describe, expect, it } from "vitest";
import { armPoints } from "./chart-points";
import { halfWidthPct, RUNS_NEEDED_LIMIT, runsNeeded } from "./precision";
import { ratioInterval } from "./ratio-interval";
import { DEFAULT_POLICY, decideNextRound, type RepeatPolicy, type StopInput } from "./schedule";
import { summariseExperiment, type SummaryRun } from "./summarise";
import { verdictLine, type HeadlineMetric } from "./verdict";

const write: HeadlineMetric = { metric: "throughput", dims: {}, noun: "write throughput", betterWhen: "higher", verb: "wrote" };
const ddParams = { target: "/t", sizeMiB: 16, mode: "write" };
const ddResult = (mibps: number) => ({ tool: "dd", toolVersion: null, warnings: [], measurements: [{ metric: "throughput", value: mibps * 2 ** 20, unit: "B/s", dims: {} }] });
const tooShort = { code: "too-short", title: "Shorter than 5 s", evidence: "ran 0.1 s", guide: null };

/** Runs of two arms, one per round, values in MiB/s. */
function runs(a: number[], b: number[], extra: (r: SummaryRun) => SummaryRun = (r) => r): SummaryRun[] {
  const out: SummaryRun[] = [];
  a.forEach((v, i) => out.push(extra({ id: `a${i}`, armIndex: 0, round: i, status: "SUCCEEDED", params: ddParams, result: ddResult(v), flags: [] })));
  b.forEach((v, i) => out.push(extra({ id: `b${i}`, armIndex: 1, round: i, status: "SUCCEEDED", params: ddParams, result: ddResult(v), flags: [] })));
  return out;
}

describe("no verdict from too few valid runs", () => {
  it("with fewer than 3 valid runs per arm a line is a state, without ratio or interval", () => {
    for (const n of [1, 2]) {
      const line = verdictLine(write, { label: "ext4", values: [100, 110].slice(0, n) }, { label: "xfs", values: [700, 720, 710] });
      expect(line).toMatchObject({ state: "collecting", ratio: null, ciLow: null, ciHigh: null, confidence: null, halfWidthPct: null, sentence: `collecting: ${n} of 3 valid runs per arm` });
      expect(line?.sentence).not.toMatch(/faster|slower|%/);
    }
    expect(verdictLine(write, { label: "ext4", values: [100, 101, 99] }, { label: "xfs", values: [700, 720, 710] })?.state).toBe("decided");
  });

  it("flagged and warm-up runs are left out and listed with why; two valid runs per arm give no ratio", () => {
    const all = runs([100, 101, 99, 100], [600, 150, 152, 149], (r) => (r.id === "a3" || r.id === "b3" ? { ...r, flags: [tooShort] } : r));
    const s = summariseExperiment({ probe: "dd", armLabels: ["ext4", "xfs"], runs: all, warmupRounds: 1 });
    expect(s.arms.map((a) => a.validRunIds)).toEqual([["a1", "a2"], ["b1", "b2"]]);
    expect(s.excluded).toEqual([
      { id: "a0", armIndex: 0, round: 0, reasons: ["warm-up"] },
      { id: "a3", armIndex: 0, round: 3, reasons: ["Shorter than 5 s"] },
      { id: "b0", armIndex: 1, round: 0, reasons: ["warm-up"] },
      { id: "b3", armIndex: 1, round: 3, reasons: ["Shorter than 5 s"] },
    ]);
    expect(s.validPerArm).toBe(2);
    expect(s.verdict).toEqual([expect.objectContaining({ state: "collecting", ratio: null, sentence: "collecting: 2 of 3 valid runs per arm" })]);
    // The warm-up's 600 MiB/s does not reach the median either.
    expect(s.arms[1]?.median).toBe(151);
  });

  it("a failed or cancelled experiment gives no ratio at all, though its runs stay listed", () => {
    for (const status of ["FAILED", "CANCELLED"]) {
      const s = summariseExperiment({ probe: "dd", armLabels: ["ext4", "xfs"], runs: runs([100, 101, 99], [700, 701, 699]), status });
      expect(s.verdict).toEqual([]);
      expect(s.arms.map((a) => a.runIds.length)).toEqual([3, 3]);
    }
  });
});

describe("the chart's median mark", () => {
  it("is the table's median, for odd and even counts", () => {
    for (const values of [[764, 1110, 1200], [764, 1110, 1200, 1300], [5, 1, 3, 2]]) {
      const s = summariseExperiment({ probe: "dd", armLabels: ["ext4", "xfs"], runs: runs(values, values) });
      const key = s.headlines[0]!.key;
      expect(armPoints(s, key).map((p) => p.median)).toEqual(s.arms.map((a) => a.median));
    }
    const even = summariseExperiment({ probe: "dd", armLabels: ["a", "b"], runs: runs([764, 1110, 1200, 1300], [1, 2, 3, 4]) });
    expect(armPoints(even, even.headlines[0]!.key)[0]?.median).toBe(1155);
  });
});

describe("precision and runs needed", () => {
  it("half-width is the interval's reach from the ratio in %", () => {
    expect(halfWidthPct({ ratio: 1.2, low: 1.14, high: 1.26 })).toBeCloseTo(5, 10);
    expect(halfWidthPct({ ratio: 1, low: 0.9, high: 1.02 })).toBeCloseTo(10, 10);
  });

  it("an interval spanning 1 around a large effect says how many more runs per arm would likely decide", () => {
    // By hand: ratio 1.5, interval 0.9–2.5 with 3 runs each. Log half-width ln(2.5 / 1.5) = 0.511,
    // effect ln 1.5 = 0.405: 3 × (0.511 / 0.405)² = 4.8, so 5 runs per arm, 2 more.
    expect(runsNeeded({ ratio: 1.5, low: 0.9, high: 2.5 }, 3, 3)).toEqual({ kind: "more", more: 2, total: 5 });
    // Medians 110 and 210 MiB/s, nearly 2× apart, but one slow run in the faster arm: the 90 %
    // interval spans 1 and the answer is "about 3 more", not "no difference".
    const line = verdictLine(write, { label: "ext4", values: [100, 130, 110] }, { label: "xfs", values: [220, 105, 210] })!;
    expect(line.ciLow! < 1 && line.ciHigh! > 1).toBe(true);
    expect(line).toMatchObject({ state: "no-difference-detected", runsNeeded: 3 });
    expect(line.sentence).toBe(
      "No difference in write throughput between xfs and ext4 detected yet (90 % CI −19 to +120 %, 3 runs each): the estimate is +69 %; about 3 more runs per arm would likely tell whether it is real.",
    );
    // Too noisy: more than the limit would be needed.
    expect(runsNeeded({ ratio: 1.1, low: 0.45, high: 2.2 }, 3, 3)).toEqual({ kind: "too-noisy", limit: RUNS_NEEDED_LIMIT });
    // Within ±1 % of no change: nothing to chase.
    expect(runsNeeded({ ratio: 1.005, low: 0.95, high: 1.06 }, 5, 5)).toEqual({ kind: "same" });
  });

  it("the sentence carries the runs needed, or says the host is too noisy, or bounds a near-zero effect", () => {
    const more = verdictLine(write, { label: "ext4", values: [100, 104, 96, 101] }, { label: "xfs", values: [106, 99, 111, 104] })!;
    expect(more.state).toBe("no-difference-detected");
    expect(more.runsNeeded).toBeGreaterThan(0);
    expect(more.sentence).toContain(`about ${more.runsNeeded} more runs per arm would likely tell`);
    const noisy = verdictLine(write, { label: "ext4", values: [100, 160, 60] }, { label: "xfs", values: [103, 65, 150] })!;
    expect(noisy).toMatchObject({ state: "no-difference-detected", runsNeeded: null });
    expect(noisy.sentence).toMatch(/vary too much on this host .* more than 50 runs per arm/);
    const same = verdictLine(write, { label: "ext4", values: [100, 102, 98, 100] }, { label: "xfs", values: [100.5, 98, 102, 100] })!;
    expect(same.sentence).toMatch(/larger than ±\d\.\d % at this precision/);
  });
});

describe("stop rule: widths, counts and time only", () => {
  const policy: RepeatPolicy = { ...DEFAULT_POLICY, warmup: false, min: 3, max: 10, precisionPct: 5, budgetMin: 15 };
  const input = (o: Partial<StopInput>): StopInput => ({ halfWidths: [8], validPerArm: 3, roundsDone: 3, minutesElapsed: 2, series: [], ...o });

  it("stops once every line is within the target after min valid runs, and says what it achieved", () => {
    expect(decideNextRound(policy, input({ halfWidths: [4.2, 3.1], validPerArm: 6, roundsDone: 6, minutesElapsed: 3 }))).toEqual({
      more: false,
      reason: "precision",
      message: "±4.2 % after 6 runs per arm in 3 min: precision reached (target ±5 %).",
    });
    // One line still wide: go on.
    expect(decideNextRound(policy, input({ halfWidths: [4.2, 7], validPerArm: 6, roundsDone: 6 }))).toEqual({ more: true, reason: "imprecise" });
    // Narrow, but fewer valid runs than min (flagged runs do not count): go on.
    expect(decideNextRound({ ...policy, min: 5 }, input({ halfWidths: [2], validPerArm: 4, roundsDone: 6 }))).toEqual({ more: true, reason: "min" });
  });

  it("stops when the budget is spent or at the maximum, reporting the precision achieved", () => {
    expect(decideNextRound(policy, input({ halfWidths: [7], validPerArm: 12 / 2, roundsDone: 6, minutesElapsed: 15.2 }))).toEqual({
      more: false,
      reason: "budget",
      message: "±7.0 % after 6 runs per arm in 15 min; budget of 15 min reached (target ±5 %).",
    });
    expect(decideNextRound(policy, input({ halfWidths: [9], validPerArm: 10, roundsDone: 10, minutesElapsed: 9 }))).toMatchObject({ more: false, reason: "max" });
    const noLine = decideNextRound(policy, input({ halfWidths: [null], validPerArm: 1, roundsDone: 10 }));
    expect(noLine.more === false && noLine.message).toMatch(/^no interval yet \(1 of 3 valid runs per arm\)/);
  });

  it("never stops because an interval excludes 1: a clear but imprecise effect runs on", () => {
    // 2× apart and well clear of 1, but the interval is wider than ±5 %.
    const ri = ratioInterval([100, 110, 90, 105], [200, 240, 170, 215])!;
    expect(ri.low).toBeGreaterThan(1);
    const w = halfWidthPct(ri);
    expect(w).toBeGreaterThan(5);
    expect(decideNextRound(policy, input({ halfWidths: [w], validPerArm: 4, roundsDone: 4 }))).toEqual({ more: true, reason: "imprecise" });
    // The same runs with the faster arm halved: the interval now spans 1, its relative width is the
    // same, and so is the decision. Where the interval lies is not an input of the rule.
    const spanning = ratioInterval([100, 110, 90, 105], [100, 120, 85, 107.5])!;
    expect(spanning.low < 1 && spanning.high > 1).toBe(true);
    expect(halfWidthPct(spanning)).toBeCloseTo(w, 9);
    expect(decideNextRound(policy, input({ halfWidths: [halfWidthPct(spanning)], validPerArm: 4, roundsDone: 4 }))).toEqual({ more: true, reason: "imprecise" });
  });

  it("with a warm-up the first round never stops the experiment", () => {
    expect(decideNextRound({ ...policy, warmup: true }, input({ halfWidths: [null], validPerArm: 0, roundsDone: 0 }))).toEqual({ more: true, reason: "warm-up" });
  });
});
