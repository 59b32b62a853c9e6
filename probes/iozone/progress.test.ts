import { describe, expect, it } from "vitest";
import { fixture } from "../core/testing";
import { iozoneParamsSchema, iozonePresets } from "./params";
import { extractIozoneProgress } from "./progress";

const params = (preset: string) => iozoneParamsSchema.parse({ ...iozonePresets[preset]?.params, target: "/t" });
const lines = (name: string) => fixture("iozone", name).split("\n");

describe("iozone progress", () => {
  it("counts table rows of the expected record sizes (4..256 KiB = 7)", () => {
    const text = lines("iozone-auto-64m.txt");
    const header = text.findIndex((l) => l.includes("reclen"));
    expect(extractIozoneProgress(text.slice(0, header + 1).join("\n"), params("auto-64m"))).toMatchObject({ done: 0, total: 7, fraction: 0 });
    const three = extractIozoneProgress(`${text.slice(0, header + 4).join("\n")}\n`, params("auto-64m"));
    expect(three).toMatchObject({ done: 3, total: 7, unit: "rows" });
    expect(three?.label).toBe("3 of 7 record sizes (last: 16 KiB)");
    expect(extractIozoneProgress(text.join("\n"), params("auto-64m"))).toMatchObject({ done: 7, total: 7, fraction: 1 });
  });

  it("counts the finished cells of the row being printed", () => {
    const text = lines("iozone-auto-64m.txt");
    const header = text.findIndex((l) => l.includes("reclen"));
    const before = `${text.slice(0, header + 3).join("\n")}\n`;
    // row 3 (16 KiB) has printed write, rewrite and a cut-off read cell: 2 of 6 cells count
    const partial = extractIozoneProgress(`${before}           65536      16  1693705  8594821 190625`, params("auto-64m"));
    expect(partial?.done).toBeCloseTo(2 + 2 / 6, 6);
    expect(partial?.label).toBe("2 of 7 record sizes (last: 8 KiB)");
  });

  it("caps the expected record sizes at the file size", () => {
    const p = iozoneParamsSchema.parse({ target: "/t", fileSizeMiB: 1, minRecordKiB: 512, maxRecordKiB: 4096 });
    expect(extractIozoneProgress("", p)).toMatchObject({ done: 0, total: 2 });
  });

  it("counts Children see throughput lines in throughput mode", () => {
    const text = lines("iozone-throughput-t2-32m.txt");
    const firstTwo = text.slice(0, text.findIndex((l) => l.includes("2 readers")));
    expect(extractIozoneProgress(firstTwo.join("\n"), params("throughput-2"))).toMatchObject({ done: 2, total: 4, fraction: 0.5 });
    expect(extractIozoneProgress(text.join("\n"), params("throughput-2"))).toMatchObject({ done: 4, total: 4, fraction: 1 });
  });
});
