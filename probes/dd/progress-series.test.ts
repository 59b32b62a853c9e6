import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ddProgress } from "./progress-series";

const fixture = (name: string) => fs.readFileSync(path.join(import.meta.dirname, "fixtures", name), "utf8");

describe("dd progress over time", () => {
  it("reads each second's rate from the status=progress redraws of a real 4 GiB write", () => {
    const [s] = ddProgress(null, fixture("dd-write-direct-4g-progress.stderr.txt"));
    expect(s?.unit).toBe("MiB/s");
    // 2363490304 bytes after 1 s, then 4294967296 after 1.81803 s (the last redraw; the summary
    // follows 2 ms later, too short an interval to be a rate).
    expect(s?.points.map((p) => p.t)).toEqual([1, 1.82]);
    expect(s?.points[0]?.v).toBeCloseTo(2363490304 / 2 ** 20, 3);
    expect(s?.points[1]?.v).toBeCloseTo((4294967296 - 2363490304) / 0.81803 / 2 ** 20, 1);
  });

  it("a run shorter than one redraw has one point, the summary's average", () => {
    const points = ddProgress(null, fixture("dd-write-direct.stderr.txt"))[0]?.points ?? [];
    expect(points).toHaveLength(1);
    expect(points[0]!.v).toBeGreaterThan(0);
  });

  it("no output, no series", () => {
    expect(ddProgress(null, "")).toEqual([]);
  });
});
