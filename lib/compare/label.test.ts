import { describe, expect, it } from "vitest";
import { labelRuns, legendText, runLabel, seriesLabel, uniqueLabels, type LabelFacts } from "./label";

const agent = (over: Partial<LabelFacts> = {}): LabelFacts => ({
  origin: "AGENT",
  hostName: "db1",
  medium: "ssd",
  fsType: "ext4",
  createdAt: "2026-11-21T13:04:57.161Z",
  ...over,
});

describe("runLabel", () => {
  it("is host · medium · file system · date (UTC)", () => {
    expect(runLabel(agent())).toBe("db1 · ssd · ext4 · 2026-11-21");
  });
  it("leaves out what is not known", () => {
    expect(runLabel(agent({ medium: null, fsType: null, origin: "IMPORTED", hostName: "lab-vm" }))).toBe("lab-vm · 2026-11-21");
    expect(runLabel(agent({ medium: "unknown" }))).toBe("db1 · ext4 · 2026-11-21");
    expect(runLabel(agent({ hostName: null }))).toBe("unknown host · ssd · ext4 · 2026-11-21");
  });
  it("uses a reference run's host label, which names the article and year", () => {
    const ref = agent({ origin: "REFERENCE", hostName: "Ext2 vs Ext3 vs Ext4 (2009) · 2009 · ext3", createdAt: "2009-01-01T00:00:00.000Z" });
    expect(runLabel(ref)).toBe("Ext2 vs Ext3 vs Ext4 (2009) · 2009 · ext3");
  });
  it("adds the time at the precision asked", () => {
    expect(runLabel(agent(), "minute")).toBe("db1 · ssd · ext4 · 2026-11-21 13:04 UTC");
    expect(runLabel(agent(), "second")).toBe("db1 · ssd · ext4 · 2026-11-21 13:04:57 UTC");
  });
});

describe("labelRuns", () => {
  it("keeps the date alone when labels are already distinct", () => {
    expect(labelRuns([agent(), agent({ fsType: "xfs" })])).toEqual(["db1 · ssd · ext4 · 2026-11-21", "db1 · ssd · xfs · 2026-11-21"]);
  });
  it("adds the time only to labels that collide, then a number", () => {
    const labels = labelRuns([
      agent({ createdAt: "2026-11-21T10:00:00.000Z" }),
      agent({ createdAt: "2026-11-21T11:30:00.000Z" }),
      agent({ fsType: "xfs" }),
      agent({ createdAt: "2026-11-21T11:30:00.000Z" }),
    ]);
    expect(labels).toEqual([
      "db1 · ssd · ext4 · 2026-11-21 10:00 UTC",
      "db1 · ssd · ext4 · 2026-11-21 11:30:00 UTC",
      "db1 · ssd · xfs · 2026-11-21",
      "db1 · ssd · ext4 · 2026-11-21 11:30:00 UTC #2",
    ]);
    expect(new Set(labels).size).toBe(labels.length);
  });
});

describe("labelRuns with parameters", () => {
  it("tells runs of one day apart by the parameters that differ, dd's direction first", () => {
    const p = { target: "/srv", sizeMiB: 256, blockSizeKiB: 1024 };
    const labels = labelRuns([
      agent({ params: { ...p, mode: "write" } }),
      agent({ params: { ...p, mode: "read" } }),
      agent({ params: { ...p, mode: "write", blockSizeKiB: 4 } }),
      agent({ fsType: "xfs", params: { ...p, mode: "write" } }),
    ]);
    expect(labels).toEqual([
      "db1 · ssd · ext4 · 2026-11-21 · write, blockSizeKiB=1024",
      "db1 · ssd · ext4 · 2026-11-21 · read, blockSizeKiB=1024",
      "db1 · ssd · ext4 · 2026-11-21 · write, blockSizeKiB=4",
      "db1 · ssd · xfs · 2026-11-21",
    ]);
  });
  it("falls back to the time when the parameters are the same", () => {
    const labels = labelRuns([agent({ params: { mode: "write" } }), agent({ params: { mode: "write" }, createdAt: "2026-11-21T14:00:00Z" })]);
    expect(labels).toEqual(["db1 · ssd · ext4 · 2026-11-21 13:04 UTC", "db1 · ssd · ext4 · 2026-11-21 14:00 UTC"]);
  });
});

describe("uniqueLabels", () => {
  it("numbers repeats without clashing with existing labels", () => {
    expect(uniqueLabels(["a", "a", "a #2", "b"])).toEqual(["a", "a #3", "a #2", "b"]);
  });
});

describe("seriesLabel", () => {
  it("is the run's label for one run", () => {
    expect(seriesLabel([{ ...agent(), label: "x" }])).toBe("x");
  });
  it("names the shared configuration, the date span and the number of runs", () => {
    const runs = [
      { ...agent({ createdAt: "2026-11-20T10:00:00Z" }), label: "a" },
      { ...agent({ createdAt: "2026-11-22T10:00:00Z" }), label: "b" },
      { ...agent({ createdAt: "2026-11-21T10:00:00Z" }), label: "c" },
    ];
    expect(seriesLabel(runs)).toBe("db1 · ssd · ext4 · 2026-11-20…2026-11-22 (3 runs)");
    expect(seriesLabel(runs, "3 writes, 3 reads")).toBe("db1 · ssd · ext4 · 2026-11-20…2026-11-22 (3 writes, 3 reads)");
    expect(seriesLabel(runs.slice(0, 2), "")).toBe("db1 · ssd · ext4 · 2026-11-20…2026-11-22");
    expect(seriesLabel(runs.slice(0, 1).concat({ ...agent({ createdAt: "2026-11-20T23:00:00Z" }), label: "d" }))).toBe("db1 · ssd · ext4 · 2026-11-20 (2 runs)");
  });
});

describe("legendText", () => {
  it("keeps short labels and shortens long ones from the middle, so reference series stay apart", () => {
    expect(legendText("db1 · ssd · ext4 · 2026-11-21")).toBe("db1 · ssd · ext4 · 2026-11-21");
    const source = "Linux file systems under a metadata storm: creating and dropping fifty thousand files, measured";
    const chips = ["ext2", "ext3", "ext4"].map((fs) => legendText(`${source} · 2009 · ${fs}`));
    expect(new Set(chips).size).toBe(3);
    for (const c of chips) expect(c.length).toBeLessThanOrEqual(48);
    expect(chips[2]).toMatch(/^Linux file.*….*2009 · ext4$/);
  });
});
