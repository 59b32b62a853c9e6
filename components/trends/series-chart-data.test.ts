import { describe, expect, it } from "vitest";
import { annotationMarks, chartRows, chartSummary, chartWindows, shortChangeLabel } from "./series-chart-data";
import { sparkPoints, trendText } from "./sparkline";
import { pctText } from "./verdict-card";
import type { SeriesPoint, WindowVerdict } from "./types";

const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`;

function point(n: number, value: number | null, extra: Partial<SeriesPoint> = {}): SeriesPoint {
  return { runId: id(n), at: `2026-11-${String(10 + n).padStart(2, "0")}T12:00:00.000Z`, status: "SUCCEEDED", value, low: null, high: null, valid: true, flags: [], notes: null, scheduled: false, ...extra };
}

describe("series chart data", () => {
  it("splits valid and invalid values, sorts by time, and turns low–high into whiskers", () => {
    const rows = chartRows([point(2, 90, { valid: false, flags: ["Cached"] }), point(1, 100, { low: 95, high: 104 }), point(3, null, { status: "FAILED", valid: false })]);
    expect(rows.map((r) => r.runId)).toEqual([id(1), id(2)]);
    expect(rows[0]).toMatchObject({ valid: 100, invalid: null, spread: [5, 4] });
    expect(rows[1]).toMatchObject({ valid: null, invalid: 90, spread: null, flags: ["Cached"] });
  });

  it("shades the verdict's windows and only open alerts' recent windows", () => {
    const rows = chartRows([1, 2, 3, 4].map((n) => point(n, 100)));
    const current = { baselineRunIds: [id(1), id(2)], recentRunIds: [id(3), id(4)] } as WindowVerdict;
    const alert = (ack: string | null) => ({ id: id(9), kind: "regression", recentRunIds: [id(4)], acknowledgedAt: ack }) as never;
    const windows = chartWindows(rows, current, [alert(null), alert("2026-11-20T00:00:00Z")]);
    expect(windows.map((w) => [w.tone, w.from, w.to])).toEqual([
      ["baseline", rows[0]!.t, rows[1]!.t],
      ["recent", rows[2]!.t, rows[3]!.t],
      ["regression", rows[3]!.t, rows[3]!.t],
    ]);
  });

  it("labels a profile change in a few plain words", () => {
    expect(shortChangeLabel([{ field: "sysctl.vm.dirty_ratio", label: "`vm.dirty_ratio`", from: "20", to: "10" }])).toBe("vm.dirty_ratio");
    expect(shortChangeLabel([{ field: "kernel", label: "kernel", from: "a", to: "b" }, { field: "tool.version", label: "tool version", from: "1", to: "2" }])).toBe("kernel +1");
    const rows = chartRows([point(1, 1), point(2, 2)]);
    const marks = annotationMarks(rows, [{ runId: id(2), at: "ignored", changes: [{ field: "kernel", label: "kernel", from: "6.1.0-25", to: "6.1.0-28" }] }]);
    expect(marks).toEqual([{ t: rows[1]!.t, runId: id(2), label: "kernel", title: "kernel: 6.1.0-25 → 6.1.0-28" }]);
  });

  it("tells a screen reader what the chart shows", () => {
    const rows = chartRows([point(1, 100), point(2, 80, { valid: false })]);
    const text = chartSummary({ noun: "write throughput", unit: "MiB/s", rows, marks: [], windows: [] });
    expect(text).toContain("write throughput in MiB/s: 2 runs from 2026-11-11 12:00 to 2026-11-12 12:00 UTC");
    expect(text).toContain("1 run is not valid");
    expect(chartSummary({ noun: "x", unit: "u", rows: [], marks: [], windows: [] })).toBe("x: no run has a value yet.");
  });
});

describe("sparkline and verdict words", () => {
  it("scales values into the box, a flat series in the middle", () => {
    expect(sparkPoints([1, 2], 24, 24)).toBe("2.0,22.0 22.0,2.0");
    expect(sparkPoints([5, 5, 5], 24, 24).split(" ").every((p) => p.endsWith(",12.0"))).toBe(true);
    expect(sparkPoints([])).toBe("");
  });

  it("points the arrow with the value and names the trend by what is better", () => {
    expect(trendText("regression", "higher")).toEqual({ arrow: "↘", word: "regression" });
    expect(trendText("regression", "lower")).toEqual({ arrow: "↗", word: "regression" });
    expect(trendText("improvement", "lower").arrow).toBe("↘");
    expect(trendText("collecting", null).word).toBe("collecting");
  });

  it("writes a ratio as a signed percentage", () => {
    expect(pctText(0.82)).toBe("−18 %");
    expect(pctText(1.034)).toBe("+3.4 %");
    expect(pctText(1)).toBe("±0.0 %");
  });
});
