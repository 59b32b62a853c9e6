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
    expect(reclaim?.series.map((s) => s.name)).toContain("pgscank/s");
  });
});
