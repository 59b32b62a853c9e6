// fio's normal report against its JSON of the same run: fio 3.33 run here with
// --output-format=normal,json (fixtures/README.md), so both forms describe one measurement.
import { readdirSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { expectError, expectOk, fixture, one } from "../core/testing";
import type { Measurement } from "../core/types";
import { parseFio } from "./parse";

const pairs = readdirSync(path.join(__dirname, "fixtures"))
  .filter((f) => /^fio-3\.33-.*\.txt$/.test(f))
  .map((f) => f.replace(/\.txt$/, ""))
  .sort();
const key = (m: Measurement) => `${m.metric} ${JSON.stringify(Object.entries(m.dims).sort())}`;

/** How far the printed figure may be from the exact one: fio rounds to what it prints. */
function tolerance(m: Measurement): number {
  if (m.metric === "bw" || m.metric === "iops") return Math.abs(m.value) * 0.006;
  if (m.metric.endsWith("_mean")) return Math.max(Math.abs(m.value) * 0.001, 5.01);
  // Percentiles print whole nsec/usec/msec: one unit of what was printed.
  return m.value % 1e6 === 0 && m.value > 0 ? 1e6 : m.value % 1e3 === 0 && m.value > 0 ? 1e3 : 1;
}

describe.each(pairs)("fio normal report %s", (name) => {
  const text = expectOk(parseFio(fixture("fio", `${name}.txt`)));
  const json = expectOk(parseFio(fixture("fio", `${name}.json`)));
  const exact = new Map(json.measurements.map((m) => [key(m), m]));

  it("every value read from the text is the JSON's value as fio rounds it", () => {
    expect(text.format).toBe("fio text 3.x");
    expect(text.toolVersion).toBe("3.33");
    const wrong: string[] = [];
    for (const m of text.measurements) {
      const j = exact.get(key(m));
      if (!j) wrong.push(`${key(m)}: not in the JSON`);
      else if (Math.abs(j.value - m.value) > tolerance(m)) wrong.push(`${key(m)}: text ${m.value}, JSON ${j.value}`);
    }
    expect(wrong).toEqual([]);
  });

  it("the text has every direction that moved data, with bandwidth, IOPS, latencies and percentiles", () => {
    const inText = new Set(text.measurements.map(key));
    const missing = json.measurements
      .filter((m) => m.value > 0 && (["bw", "iops", "lat_mean", "clat_mean"].includes(m.metric) || /^(clat|lat)_p/.test(m.metric)))
      .filter((m) => !inText.has(key(m)))
      .map(key);
    expect(missing).toEqual([]);
  });
});

describe("fio normal report, special cases", () => {
  it("numjobs=2 without group_reporting: two jobs of one name, numbered in both forms", () => {
    const r = expectOk(parseFio(fixture("fio", "fio-3.33-numjobs2.txt")));
    expect(new Set(r.measurements.map((m) => m.dims.instance))).toEqual(new Set(["1", "2"]));
  });

  it("group_reporting: one result for the group", () => {
    const r = expectOk(parseFio(fixture("fio", "fio-3.33-numjobs2-group.txt")));
    expect(r.measurements.filter((m) => m.metric === "bw").map((m) => m.dims)).toEqual([{ job: "grouped", direction: "read" }]);
  });

  it("two run groups (stonewall) and fsync latencies", () => {
    const groups = expectOk(parseFio(fixture("fio", "fio-3.33-two-groups.txt")));
    expect(new Set(groups.measurements.map((m) => `${m.dims.job}/${m.dims.direction}`))).toEqual(new Set(["writer/write", "reader/read"]));
    const sync = expectOk(parseFio(fixture("fio", "fio-3.33-fsync-write.txt")));
    expect(one(sync.measurements, "lat_mean", { direction: "sync" }).value).toBeGreaterThan(0);
  });

  it("fio 2.x text: KB = KiB, usec and msec, and the 2.0 'Client1 (g=0)' header", () => {
    const r = expectOk(parseFio(fixture("fio", "hand-fio-2.2.10-randrw.txt")));
    expect(r.format).toBe("fio text 2.x");
    const exact = expectOk(parseFio(fixture("fio", "hand-fio-2.2.10-randrw.json")));
    for (const m of r.measurements) {
      const j = exact.measurements.find((x) => key(x) === key(m));
      expect(j, key(m)).toBeDefined();
      expect(Math.abs((j?.value ?? NaN) - m.value), key(m)).toBeLessThanOrEqual(tolerance(m));
    }
    const howto = expectOk(parseFio(fixture("fio", "hand-fio-2.0-howto.txt")));
    const dims = { job: "Client1", direction: "write" };
    expect(one(howto.measurements, "bw", dims).value).toBe(666 * 1024);
    expect(one(howto.measurements, "iops", dims).value).toBe(89);
    expect(one(howto.measurements, "clat_mean", dims).value).toBe(48.5e6);
    expect(one(howto.measurements, "slat_mean", dims).value).toBe(0.03e6);
  });

  it("fio's header without results is an honest failure", () => {
    expect(expectError(parseFio("seqwrite: (g=0): rw=write, bs=(R) 1024KiB-1024KiB\nfio-3.33\nStarting 1 process\n"))).toMatch(/^not fio JSON output, nor a fio text report/);
    const cut = fixture("fio", "fio-3.33-seqwrite.txt").split("\n").slice(0, 5).join("\n");
    expect(expectError(parseFio(cut))).toMatch(/no read\/write lines/);
  });
});

describe("fio json+", () => {
  it("keeps the completion-latency histogram as clat_bin counts", () => {
    const r = expectOk(parseFio(fixture("fio", "fio-3.33-randread-jsonplus.json")));
    expect(r.format).toBe("fio json+ 3.x");
    const bins = r.measurements.filter((m) => m.metric === "clat_bin" && m.dims.direction === "read");
    const total = one(r.measurements, "iops", { direction: "read" });
    expect(bins.length).toBeGreaterThan(10);
    expect(bins.every((b) => typeof b.dims.clat_ns === "number" && b.value > 0)).toBe(true);
    expect(total.value).toBeGreaterThan(0);
  });
});
