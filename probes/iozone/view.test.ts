import { describe, expect, it } from "vitest";
import { expectOk, fixture } from "../core/testing";
import { parseIozone } from "./parse";
import { iozoneView } from "./view";

const result = expectOk(parseIozone(fixture("iozone", "iozone-auto-64m-alltests-R.txt")));

describe("iozone view", () => {
  it("draws one run in MiB/s (iozone's KB/s ÷ 1024)", () => {
    const charts = iozoneView.runCharts(result);
    expect(charts.length).toBeGreaterThan(0);
    expect(charts.every((c) => c.yLabel === "MiB/s")).toBe(true);
    const write = charts[0]!.series.find((s) => s.name === "write")!;
    const stored = result.measurements.find((m) => m.metric === "write" && m.dims.record_kib === write.points[0]!.x)!;
    expect(stored.unit).toBe("KiB/s");
    expect(write.points[0]!.y).toBe(stored.value / 1024);
  });
  it("gives the comparison the same unit and values as the run page", () => {
    const section = iozoneView.compareSection([{ key: "s0", label: "one run", runs: [{ params: {}, result, targetDevice: null }] }]);
    const chart = section.charts.find((c) => c.id.startsWith("iozone-write-"))!;
    expect(chart.yUnit).toBe("MiB/s");
    const run = iozoneView.runCharts(result)[0]!.series.find((s) => s.name === "write")!;
    expect(chart.rows.map((r) => r.values.s0![0])).toEqual(run.points.map((p) => p.y));
    expect(section.groups?.length).toBe(1);
  });
});
