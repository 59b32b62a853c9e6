import { describe, expect, it } from "vitest";
import { fixture } from "../core/testing";
import { fsmetaParamsSchema } from "./params";
import { extractFsmetaProgress } from "./progress";

const flat = fsmetaParamsSchema.parse({ target: "/t", files: 50_000, dirs: 1 });
const tree = fsmetaParamsSchema.parse({ target: "/t", files: 50_000, dirs: 10 });
const upTo = (text: string, needle: string) => text.slice(0, text.indexOf(needle) + needle.length);

describe("fsmeta progress", () => {
  it("starts at zero before fio's first ETA line", () => {
    expect(extractFsmetaProgress("fio-3.33\r\nStarting 3 processes\r\n", flat)).toMatchObject({ done: 0, total: 3, unit: "steps", fraction: 0, label: "starting: 50,000 files" });
  });

  it("counts finished steps of the flat run and shows fio's current rate", () => {
    const text = fixture("fsmeta", "fsmeta-flat-50k.txt");
    const creating = extractFsmetaProgress(upTo(text, "[R(1),P(2)][5.6%]"), flat);
    expect(creating).toMatchObject({ total: 3, unit: "steps" });
    expect(creating?.done).toBeCloseTo(0.056, 6);
    expect(creating?.label).toMatch(/^create \(step 1 of 3\)/);
    const deleting = extractFsmetaProgress(upTo(text, "[_(2),R(1)][80.0%]"), flat);
    expect(deleting?.done).toBeCloseTo(2.8, 6);
    expect(deleting?.label).toMatch(/^delete \(step 3 of 3\)/);
  });

  it("reads the rate fio printed in the last ETA line", () => {
    const line = "Jobs: 1 (f=0): [_(1),R(1),P(1)][33.3%][r=330MiB/s][r=84.4k IOPS][eta 00m:02s]\r";
    const p = extractFsmetaProgress(line, flat);
    expect(p).toMatchObject({ total: 3, label: "stat (step 2 of 3), 84.4k files/s" });
    expect(p?.done).toBeCloseTo(1.333, 6);
  });

  it("skips the tree's mkdir job and counts ten workers per step", () => {
    const text = fixture("fsmeta", "fsmeta-tree-50k.txt");
    expect(extractFsmetaProgress(upTo(text, "[R(1),P(31)]"), tree)).toMatchObject({ done: 0, total: 3 });
    expect(extractFsmetaProgress(upTo(text, "[_(1),R(10),P(21)][10.3%]"), tree)?.done).toBeCloseTo(0.103, 6);
    expect(extractFsmetaProgress(upTo(text, "[_(31),R(1)][100.0%]"), tree)).toMatchObject({ done: 3, total: 3, fraction: 1, label: "cleaning up" });
    expect(extractFsmetaProgress(text, tree)).toMatchObject({ done: 3, total: 3, fraction: 1, label: "finished" });
  });

  it("never goes backwards over a whole run", () => {
    const text = fixture("fsmeta", "fsmeta-tree-50k.txt");
    let previous = 0;
    for (let n = 0; n <= text.length; n += 97) {
      const p = extractFsmetaProgress(text.slice(0, n), tree);
      expect(p?.done ?? 0).toBeGreaterThanOrEqual(previous);
      previous = p?.done ?? 0;
    }
  });
});
