import { describe, expect, it } from "vitest";
import { fixture } from "../core/testing";
import { ddParamsSchema } from "./params";
import { extractDdProgress } from "./progress";

const params = ddParamsSchema.parse({ target: "/t", sizeMiB: 4096 });

describe("dd progress", () => {
  it("follows the \\r-separated status=progress lines", () => {
    const text = fixture("dd", "dd-read-direct-4g-progress.stderr.txt");
    const firstTwo = text.slice(0, text.indexOf("\r3446669312"));
    const p = extractDdProgress(firstTwo, params);
    expect(p).toMatchObject({ done: 2204106752, total: 4294967296, unit: "B" });
    expect(p?.fraction).toBeCloseTo(0.5132, 3);
    expect(p?.label).toBe("2.1 GiB of 4.0 GiB, 1.1 GB/s");
    expect(extractDdProgress(text, params)).toMatchObject({ done: 4294967296, fraction: 1 });
  });

  it("starts at zero before the first redraw", () => {
    expect(extractDdProgress("", params)).toMatchObject({ done: 0, total: 4294967296, fraction: 0 });
  });

  it("reads localised progress lines", () => {
    const text = fixture("dd", "hand-dd-de_DE-progress.stderr.txt").split("\n")[0] ?? "";
    expect(extractDdProgress(text, params)).toMatchObject({ done: 2204106752 });
  });

  it("clamps at the requested size", () => {
    const p = extractDdProgress(fixture("dd", "dd-write-direct.stderr.txt"), ddParamsSchema.parse({ target: "/t", sizeMiB: 128 }));
    expect(p).toMatchObject({ done: 134217728, total: 134217728, fraction: 1 });
  });
});
