import { describe, expect, it } from "vitest";
import { lastWindow, leastSquaresSlope, SNIA_MAX_ROUNDS, steadyVerdict, wantsAnotherRound } from "./rule";

/** A fresh-out-of-box curve: high at first, falling to a plateau with ±3 % noise from round 8. */
const settling = [52000, 41000, 33000, 27000, 24000, 22500, 21500, 20600, 21100, 20300, 20900, 20400, 21000];

describe("SNIA steady-state rule", () => {
  it("fits the least-squares slope per round", () => {
    expect(leastSquaresSlope([1, 2, 3, 4, 5])).toBeCloseTo(1);
    expect(leastSquaresSlope([5, 5, 5, 5, 5])).toBe(0);
    expect(leastSquaresSlope([10, 8, 6, 4, 2])).toBeCloseTo(-2);
  });

  it("reaches steady state on a series that settles, at the first window that holds", () => {
    const v = steadyVerdict(settling);
    expect(v.reached).toBe(true);
    // Rounds 5…9 still fall (24000 → 21100: range 12 % but the line drops ~14 %); 6…10 hold.
    expect(v.rounds).toBe(10);
    expect(v.window).toMatchObject({ fromRound: 6, toRound: 10, steady: true });
    expect(v.window!.rangeShare).toBeLessThanOrEqual(0.2);
    expect(v.window!.excursionShare).toBeLessThanOrEqual(0.1);
    expect(steadyVerdict(settling.slice(0, 9)).reached).toBe(false);
    expect(wantsAnotherRound(settling.slice(0, 9))).toBe(true);
    expect(wantsAnotherRound(settling.slice(0, 10))).toBe(false);
  });

  it("tolerates a steady 2 % drift per round (the line moves ~8 % < 10 %) but not 3 % (~12 %)", () => {
    // The PTS's 10 % slope excursion over a 5-round window allows up to 2.5 % of drift a round:
    // a device whose IOPS fall 2 % every round is "steady" by this definition, from round 5 on.
    const drift = (pct: number) => Array.from({ length: SNIA_MAX_ROUNDS }, (_, i) => 10000 * (1 + pct / 100) ** i);
    const two = steadyVerdict(drift(2));
    expect(two).toMatchObject({ reached: true, rounds: 5 });
    expect(two.window!.excursionShare).toBeGreaterThan(0.07);
    expect(two.window!.excursionShare).toBeLessThan(0.1);
    const three = steadyVerdict(drift(3));
    expect(three.reached).toBe(false);
    expect(three.rounds).toBe(25);
    // Range (~12 %) passes; the slope excursion (~12 %) is what fails.
    expect(three.window!.rangeShare).toBeLessThan(0.2);
    expect(three.window!.excursionShare).toBeGreaterThan(0.1);
    expect(wantsAnotherRound(drift(3))).toBe(false);
    expect(wantsAnotherRound(drift(3).slice(0, 24))).toBe(true);
  });

  it("never reaches it on a series oscillating ±15 %: the range (30 %) fails though the line is flat", () => {
    const oscillating = Array.from({ length: SNIA_MAX_ROUNDS }, (_, i) => 10000 * (i % 2 === 0 ? 1.15 : 0.85));
    const v = steadyVerdict(oscillating);
    expect(v.reached).toBe(false);
    expect(v.rounds).toBe(25);
    expect(v.window!.rangeShare).toBeGreaterThan(0.2);
    expect(v.window!.excursionShare).toBeLessThanOrEqual(0.1);
  });

  it("says nothing before five rounds and never calls zeros steady", () => {
    expect(lastWindow([1, 1, 1, 1])).toBeNull();
    expect(steadyVerdict([1, 1, 1])).toEqual({ reached: false, rounds: 3, window: null });
    expect(steadyVerdict([0, 0, 0, 0, 0]).reached).toBe(false);
  });
});
