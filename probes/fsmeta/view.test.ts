import { describe, expect, it } from "vitest";
import { expectOk, fixture } from "../core/testing";
import { parseFsmeta } from "./parse";
import { fsmetaView } from "./view";

const flat = expectOk(parseFsmeta(fixture("fsmeta", "fsmeta-flat-50k-loop-ext4.txt")));
const tree = expectOk(parseFsmeta(fixture("fsmeta", "fsmeta-tree-50k.txt")));

describe("fsmeta view", () => {
  it("draws one run as files per second and p99 latency (µs) per step, in run order", () => {
    const [rate, p99] = fsmetaView.runCharts(flat);
    expect(rate).toMatchObject({ title: "files per second", kind: "bar", xLabel: "step", yLabel: "files/s" });
    expect(rate!.series[0]!.points).toEqual([
      { x: "create", y: 15923.566879 },
      { x: "stat", y: 125000 },
      { x: "delete", y: 26838.432636 },
    ]);
    expect(p99).toMatchObject({ yLabel: "µs" });
    expect(p99!.series[0]!.points[0]).toEqual({ x: "create", y: 69.12 });
  });

  it("lines a flat and a tree run up step by step, and says that their layouts differ", () => {
    const section = fsmetaView.compareSection([
      { key: "s0", label: "flat", runs: [{ params: {}, result: flat, targetDevice: null }] },
      { key: "s1", label: "tree", runs: [{ params: {}, result: tree, targetDevice: null }] },
    ]);
    expect(section.charts.map((c) => [c.id, c.yUnit, c.rows.map((r) => r.x)])).toEqual([
      ["fsmeta-rate", "files/s", ["create", "stat", "delete"]],
      ["fsmeta-lat_p99", "µs", ["create", "stat", "delete"]],
    ]);
    expect(section.charts[0]!.rows[0]!.values).toEqual({ s0: [15923.566879], s1: [14144.27157] });
    expect(section.table.rows.map((r) => `${r.metric} ${r.dims} ${r.unit} ${r.better}`)).toContain("mean latency stat µs lower");
    expect(section.notes.join(" ")).toMatch(/differ in layout \(50000 files in 1 directory; 50000 files in 10 directories\)/);
  });
});
