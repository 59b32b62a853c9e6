import { describe, expect, it } from "vitest";
import { foldKey, foldRuns, stableJson } from "./fold";
import { buildComparison } from "./model";
import { compareRun, ddResult } from "./testing";

describe("foldRuns", () => {
  it("folds runs of one configuration (host, probe, params, fs, medium) in order of first appearance", () => {
    const a1 = compareRun();
    const b = compareRun({ fsType: "xfs" });
    const a2 = compareRun();
    const c = compareRun({ hostKey: "host:2" });
    const groups = foldRuns([a1, b, a2, c], true);
    expect(groups.map((g) => g.map((r) => r.id))).toEqual([[a1.id, a2.id], [b.id], [c.id]]);
    expect(foldRuns([a1, b, a2, c], false)).toHaveLength(4);
  });
  it("treats parameters as equal whatever their key order", () => {
    expect(stableJson({ b: 1, a: { d: [1, { f: 2, e: 3 }], c: 2 } })).toBe('{"a":{"c":2,"d":[1,{"e":3,"f":2}]},"b":1}');
    const a = compareRun({ params: { mode: "write", target: "/x" } });
    const b = compareRun({ params: { target: "/x", mode: "write" } });
    expect(foldKey(a)).toBe(foldKey(b));
  });
  it("never folds imported runs (params {}) unless they share a repeat group", () => {
    const i1 = compareRun({ origin: "IMPORTED", params: {}, hostKey: "label:lab" });
    const i2 = compareRun({ origin: "IMPORTED", params: {}, hostKey: "label:lab" });
    expect(foldRuns([i1, i2], true)).toHaveLength(2);
    const g = "11111111-1111-4111-8111-111111111111";
    expect(foldRuns([{ ...i1, repeatGroup: g }, { ...i2, repeatGroup: g }], true)).toHaveLength(1);
  });
  it("keeps a repeat group together even if one repeat's facts were not recorded", () => {
    const g = "22222222-2222-4222-8222-222222222222";
    const r1 = compareRun({ repeatGroup: g });
    const r2 = compareRun({ repeatGroup: g, fsType: null });
    expect(foldRuns([r1, r2], true)).toHaveLength(1);
  });
});

const mib = (bytesPerSecond: number) => Number((bytesPerSecond / 2 ** 20).toPrecision(6));

describe("folded series in the comparison", () => {
  it("draws the median with min–max whiskers and the CV, and warns above 5 %", () => {
    const runs = [compareRun({ result: ddResult(100e6) }), compareRun({ result: ddResult(120e6) }), compareRun({ result: ddResult(80e6) }), compareRun({ fsType: "xfs", result: ddResult(300e6) })];
    const m = buildComparison(runs, { fold: true });
    expect(m.series.map((s) => s.runIds.length)).toEqual([3, 1]);
    expect(m.series[0]?.label).toBe("run 1 · 2026-11-21 (3 runs)".replace("run 1", "db1 · disk · ext4"));
    const row = m.sections[0]!.charts[0]!.rows[0]!;
    expect(row.x).toBe("write");
    // dd's bytes per second are shown in MiB/s.
    expect(row.stats.s1).toEqual({ n: 1, median: mib(300e6), min: mib(300e6), max: mib(300e6), cv: null });
    const stat = row.stats.s0!;
    expect(stat).toMatchObject({ n: 3, median: mib(100e6), min: mib(80e6), max: mib(120e6) });
    expect(stat.cv).toBe(20);
    expect(m.cvWarnings).toHaveLength(1);
    expect(m.cvWarnings[0]).toMatchObject({ seriesKey: "s0", worst: { what: "throughput (write)" } });
    expect(m.series[0]?.maxCv).toBeCloseTo(20, 10);
  });
  it("does not warn for steady repeats", () => {
    const runs = [compareRun({ result: ddResult(100e6) }), compareRun({ result: ddResult(101e6) })];
    expect(buildComparison(runs, { fold: true }).cvWarnings).toEqual([]);
  });
});
