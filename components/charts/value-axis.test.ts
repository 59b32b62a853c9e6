import { describe, expect, it } from "vitest";
import { logTicks, valueAxis } from "./value-axis";
import { fioProbe } from "@/probes/fio/probe";
import { fixture } from "@/probes/core/testing";
import { parseFio } from "@/probes/fio/parse";

/** Each tick over the one before: 10 for decades, 2, 2.5 and 2 within a 1-2-5 decade. */
const ratios = (ts: number[]) => ts.slice(1).map((t, i) => Number((t / ts[i]!).toFixed(6)));

describe("value axis of run charts", () => {
  it("is linear unless asked", () => {
    expect(valueAxis(undefined, [1, 1000])).toEqual({ scale: "linear" });
    expect(valueAxis(true, [0, -1])).toEqual({ scale: "linear" });
  });

  it("is logarithmic with 1-2-5 ticks per decade over a narrow span, decades over a wide one", () => {
    expect(logTicks(30, 400)).toEqual([20, 50, 100, 200, 500]);
    expect(logTicks(3, 90_000)).toEqual([1, 10, 100, 1000, 10_000, 100_000]);
    const a = valueAxis(true, [0, 120, 35_000]);
    expect(a.scale).toBe("log");
    expect(a.ticks).toEqual([100, 1000, 10_000, 100_000]);
    expect(a.domain).toEqual([100, 100_000]);
  });

  it("draws fio's percentile curve on a log latency axis with log-spaced ticks", () => {
    const parsed = parseFio(fixture("fio", "fio-3.33-percentiles.json"));
    if (!parsed.ok) throw new Error(parsed.error);
    const curve = fioProbe.view.runCharts(parsed.result).find((c) => c.title === "fio completion latency percentiles");
    expect(curve?.logY).toBe(true);
    expect(curve?.source).toBe("fio-3.33");
    const ys = curve!.series.flatMap((s) => s.points.map((p) => p.y));
    const axis = valueAxis(curve!.logY, ys);
    expect(axis.scale).toBe("log");
    // Log spacing: every tick a constant factor (10) or a 1-2-5 step above the one before.
    for (const r of ratios(axis.ticks!)) expect([2, 2.5, 10]).toContain(r);
    expect(axis.ticks![0]).toBeLessThanOrEqual(Math.min(...ys));
    expect(axis.ticks!.at(-1)).toBeGreaterThanOrEqual(Math.max(...ys));
  });
});
