import { describe, expect, it } from "vitest";
import { expectOk, fixture } from "../core/testing";
import { parseSar } from "./parse";
import { sarView } from "./view";

describe("sar run charts", () => {
  it("draws sar -B's page traffic and faults, not only the reclaim columns", () => {
    const charts = sarView.runCharts(expectOk(parseSar(fixture("sar", "sar-B.txt"))));
    const traffic = charts.find((c) => c.title === "sar paging: pages in/out and faults");
    expect(traffic?.series.map((s) => s.name).sort()).toEqual(["fault/s", "pgpgin/s", "pgpgout/s"]);
    // The fixture's first sample: 12420 faults/s, 16 KiB/s paged out.
    expect(traffic?.series.find((s) => s.name === "fault/s")?.points[0]).toEqual({ x: "12:02:03", y: 12420 });
    expect(traffic?.series.find((s) => s.name === "pgpgout/s")?.points[0]?.y).toBe(16);
    const reclaim = charts.find((c) => c.title === "sar paging: reclaim");
    expect(reclaim?.series.map((s) => s.name)).toContain("pgsteal/s");
  });

  it("draws page scanning and dirty memory once: in the diagnosis (lib/timeline/panels.test.ts), not again in the results or a progress series", () => {
    const result = expectOk(parseSar(fixture("sar", "gen-sar-B-d-r-u.txt")));
    const names = sarView.runCharts(result).flatMap((c) => c.series.map((s) => s.name));
    expect(names.filter((n) => /pgscan|kbdirty/.test(n))).toEqual([]);
    expect(sarView.progress).toBeUndefined();
  });

  it("gives %util and the millisecond columns of sar -d charts of their own", () => {
    const charts = sarView.runCharts(expectOk(parseSar(fixture("sar", "gen-sar-B-d-r-u.txt"))));
    const disk = charts.filter((c) => c.title.startsWith("sar disk")).sort((a, b) => a.title.localeCompare(b.title));
    expect(disk.map((c) => [c.title, c.yLabel])).toEqual([
      ["sar disk: %util", "%"],
      ["sar disk: await", "ms"],
    ]);
    expect(disk[0]!.series.every((s) => s.name.startsWith("%util"))).toBe(true);
    expect(disk[1]!.series.every((s) => s.name.startsWith("await"))).toBe(true);
  });
});
