import { describe, expect, it } from "vitest";
import { displayMeasurement, displayUnit, metricAllowed } from "./metrics";

describe("display units", () => {
  it("shows every throughput in MiB/s and latencies in µs", () => {
    expect(displayUnit("KiB/s")).toEqual({ unit: "MiB/s", scale: 1 / 1024 });
    expect(displayUnit("B/s")).toEqual({ unit: "MiB/s", scale: 1 / 2 ** 20 });
    expect(displayUnit("MB/s").unit).toBe("MiB/s");
    expect(displayUnit("ns")).toEqual({ unit: "µs", scale: 1 / 1000 });
    expect(displayUnit("%")).toEqual({ unit: "%", scale: 1 });
  });
  it("converts a measurement and leaves others as they are", () => {
    const m = { metric: "write", value: 2048, unit: "KiB/s", dims: { record_kib: 4 } };
    expect(displayMeasurement(m)).toEqual({ metric: "write", value: 2, unit: "MiB/s", dims: { record_kib: 4 } });
    const pct = { metric: "%util", value: 12, unit: "%", dims: {} };
    expect(displayMeasurement(pct)).toBe(pct);
  });
});

describe("metricAllowed", () => {
  const vocab = { metrics: [{ id: "bw", title: "bandwidth", unit: "B/s", better: "higher" as const }] };
  it("knows the listed names, a pattern, or anything", () => {
    expect(metricAllowed(vocab, "bw")).toBe(true);
    expect(metricAllowed(vocab, "iops")).toBe(false);
    expect(metricAllowed({ ...vocab, also: /^throughput_[a-z]+$/ }, "throughput_write")).toBe(true);
    expect(metricAllowed({ ...vocab, also: /^throughput_[a-z]+$/ }, "throughput_")).toBe(false);
    expect(metricAllowed({ metrics: [], also: "any" }, "kbdirty")).toBe(true);
  });
});
