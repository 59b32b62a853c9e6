import { describe, expect, it } from "vitest";
import { expectOk, fixture } from "../core/testing";
import { parsePaste } from "../paste";
import { parseDd } from "./parse";
import { ddView } from "./view";

const result = expectOk(parseDd(fixture("dd", "dd-write-direct.stderr.txt")));
const bytesPerSecond = result.measurements.find((m) => m.metric === "throughput")!.value;

describe("dd view", () => {
  it("shows throughput in MiB/s on the run page and in a comparison", () => {
    const [chart] = ddView.runCharts(result);
    expect(chart).toMatchObject({ yLabel: "MiB/s" });
    expect(chart!.series[0]!.points[0]!.y).toBe(bytesPerSecond / 2 ** 20);
    const section = ddView.compareSection([{ key: "s0", label: "one run", runs: [{ params: { mode: "write" }, result, targetDevice: null }] }]);
    expect(section.charts[0]).toMatchObject({ yUnit: "MiB/s" });
    expect(section.charts[0]!.rows[0]).toMatchObject({ x: "write", values: { s0: [bytesPerSecond / 2 ** 20] } });
  });
  it("draws a bar per run for a paste kept as one repeated series", () => {
    const series = expectOk(parsePaste("dd", fixture("dd", "paste-bash-time-session.txt")));
    const [chart] = ddView.runCharts(series);
    expect(chart!.series[0]!.points).toEqual([
      { x: "run 1", y: 67108864 / 0.179999 / 2 ** 20 },
      { x: "run 2", y: 67108864 / 0.0110644 / 2 ** 20 },
    ]);
  });
  it("pairs a write and a read of one setup, and knows fdatasync only for writes", () => {
    expect(ddView.sides?.sideOf({ mode: "read" })).toBe("read");
    expect(ddView.sides?.sideOf({})).toBeNull();
    const sync = ddView.differsFacts?.find((f) => f.id === "ddSync");
    expect(sync?.value({ mode: "write", fdatasync: false })).toBe("false");
    expect(sync?.value({ mode: "read", fdatasync: false })).toBeNull();
  });
});
