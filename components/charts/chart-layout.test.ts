import { describe, expect, it } from "vitest";
import { tickText, xAxisLayout } from "./chart-layout";

const jobs = ["seq-read read", "seq-write write", "rand-read read", "rand-write write", "mixed read", "mixed write", "mixed total"];

describe("result chart x axis", () => {
  it("keeps level labels and titles in the chart on a wide screen", () => {
    expect(xAxisLayout(900, jobs)).toMatchObject({ angle: 0, interval: 0, titlesBelow: false });
  });

  it("angles and thins fio's job labels on a phone, with the axis titles below the chart", () => {
    const phone = xAxisLayout(340, jobs);
    expect(phone.angle).toBeLessThan(0);
    expect(phone.titlesBelow).toBe(true);
    // Angled labels each need ~22 px: seven fit in 210 px of plot.
    expect(xAxisLayout(340, [...jobs, ...jobs, ...jobs]).interval).toBeGreaterThan(0);
    expect(tickText("latency bucket above the previous bound", phone.maxLabelChars)).toHaveLength(phone.maxLabelChars);
  });

  it("draws fewer level ticks on a numeric axis, so none runs into the value axis", () => {
    const nines = xAxisLayout(340, ["p0", "p50", "p90", "p99", "p99.9", "p99.99", "p99.999"], true);
    expect(nines).toMatchObject({ angle: 0, titlesBelow: true });
    expect(nines.interval).toBeGreaterThan(0);
  });
});
