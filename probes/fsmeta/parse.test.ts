import { describe, expect, it } from "vitest";
import { normalisedResultSchema } from "../catalog";
import { expectError, expectOk, fixture, one } from "../core/testing";
import { parseFsmeta } from "./parse";

const parse = (name: string) => expectOk(parseFsmeta(fixture("fsmeta", name)));

describe("fsmeta: fio 3.33 filecreate / filestat / filedelete under a pty", () => {
  it("flat 50,000: files per second and latency of each step, with the layout as dims", () => {
    const r = parse("fsmeta-flat-50k.txt");
    expect(r).toMatchObject({ tool: "fsmeta", toolVersion: "3.33", warnings: [] });
    expect(normalisedResultSchema.safeParse(r).success).toBe(true);
    const dims = (op: string) => ({ op, layout: "flat", files: 50000, dirs: 1 });
    expect(r.measurements.filter((m) => m.dims.op === "create")).toEqual([
      { metric: "rate", value: 6615.506748, unit: "files/s", dims: dims("create") },
      { metric: "lat_mean", value: 144095.97942, unit: "ns", dims: dims("create") },
      { metric: "lat_p99", value: 1974272, unit: "ns", dims: dims("create") },
    ]);
    expect(one(r.measurements, "rate", { op: "stat" }).value).toBe(84889.643463);
    expect(one(r.measurements, "rate", { op: "delete" }).value).toBe(15271.838729);
    expect(r.measurements).toHaveLength(9);
  });

  it.each([
    ["fsmeta-flat-50k-loop-ext3.txt", 16605.778811, 114678.899083, 24177.94971],
    ["fsmeta-flat-50k-loop-ext4.txt", 15923.566879, 125000, 26838.432636],
    ["fsmeta-flat-50k-loop-xfs.txt", 22737.608004, 101214.574899, 21413.276231],
    ["fsmeta-quick.txt", 786.039931, 100000, 27472.527473],
  ])("%s", (name, create, stat, del) => {
    const ms = parse(name).measurements;
    expect([create, stat, del]).toEqual(["create", "stat", "delete"].map((op) => one(ms, "rate", { op }).value));
  });

  it("tree: the ten workers of each step are one group; mkdir and rmdir are not steps", () => {
    const r = parse("fsmeta-tree-50k.txt");
    expect(r.warnings).toEqual([]);
    expect(one(r.measurements, "rate", { op: "create" })).toEqual({
      metric: "rate", value: 14144.27157, unit: "files/s", dims: { op: "create", layout: "tree", files: 50000, dirs: 10 },
    });
    expect(one(r.measurements, "lat_p99", { op: "stat" }).value).toBe(2384);
    expect(new Set(r.measurements.map((m) => m.dims.op))).toEqual(new Set(["create", "stat", "delete"]));
  });

  it("warns when a step was too short for fio's millisecond clock", () => {
    const r = parse("fsmeta-tree-3x1000.txt");
    expect(r.warnings).toEqual([
      "the stat step took 15 ms: fio times a step in whole milliseconds, so its rate is only good to about ±4 %; use more files for a finer figure",
    ]);
    expect(one(r.measurements, "rate", { op: "stat", dirs: 3 }).value).toBe(200000);
  });

  it("reads the bare JSON report too (fio run with --output-format=json, no terminal)", () => {
    const text = fixture("fsmeta", "fsmeta-quick.txt").replace(/\r\n/g, "\n");
    const json = text.slice(text.indexOf('{\n  "fio version"'), text.indexOf("\n}\n") + 2);
    expect(one(expectOk(parseFsmeta(json)).measurements, "rate", { op: "delete" }).value).toBe(27472.527473);
  });
});

describe("fsmeta errors", () => {
  it("fails a run that ran out of inodes, with fio's own line and what to check", () => {
    expect(expectError(parseFsmeta(fixture("fsmeta", "fsmeta-error-out-of-inodes.txt")))).toBe(
      "fio's create step failed with error 28 (No space left on device (out of inodes or blocks)) after 2037 of 5000 files (df -i shows the free inodes): " +
        "pid=29927, err=28/file:engines/fileoperations.c:91, func=open(/tmp/fsmeta-tiny/probebook-fsmeta.2037), error=No space left on device",
    );
  });

  it("explains fio refusing its options before it measured anything", () => {
    expect(expectError(parseFsmeta("fio: /srv/gone is not a directory\nfio: failed parsing directory=/srv/gone\n"))).toBe(
      "fio stopped before measuring: /srv/gone is not a directory | failed parsing directory=/srv/gone",
    );
  });

  it("rejects other tools' output and fio reports without metadata steps", () => {
    expect(expectError(parseFsmeta(fixture("dd", "dd-write-direct.stderr.txt")))).toMatch(/^not fio output of the metadata probe/);
    expect(expectError(parseFsmeta(fixture("fio", "fio-seqwrite.json")))).toBe("fio's report has no create, stat or delete step that handled files");
  });

  it("reports an interrupted run (ETA lines, no report yet) as not finished", () => {
    const text = fixture("fsmeta", "fsmeta-flat-50k.txt");
    expect(expectError(parseFsmeta(text.slice(0, text.indexOf('"fio version"') - 5)))).toMatch(/^not fio output of the metadata probe: no JSON report/);
  });
});
