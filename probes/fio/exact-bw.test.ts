import { describe, expect, it } from "vitest";
import { expectOk, fixture, one } from "../core/testing";
import { exactBandwidth, readFigure } from "./exact-bw";
import { parseFio } from "./parse";

// hand-fio-3.1-num2str-carry.txt: its BW lines were printed by fio 3.1's own lib/num2str.c
// (compiled from fio's git tag fio-3.1) for runs whose exact bandwidths are 10480708 B/s
// (76763 × 4 KiB in 30000 ms) and 24985 B/s (183 × 4 KiB in 30000 ms); see fixtures/README.md.
describe("fio 3.1 text: the figure the line's numbers agree on, not a mis-rounded one", () => {
  const r = expectOk(parseFio(fixture("fio", "hand-fio-3.1-num2str-carry.txt")));

  it("BW=9.00MiB/s (10.5MB/s)(300MiB/30000msec): 9.00 lost its carry, the exact figure is ~10.48 MB/s", () => {
    const bw = one(r.measurements, "bw", { job: "seqread", direction: "read" }).value;
    expect(Math.abs(bw - 10480708) / 10480708).toBeLessThan(0.001);
    expect(r.warnings.some((w) => w.includes("seqread read: fio printed BW=9.00MiB/s"))).toBe(true);
  });

  it("BW=24.4KiB/s (24.0kB/s): here the SI figure is the wrong one and the KiB figure is kept", () => {
    const bw = one(r.measurements, "bw", { job: "slowwrite", direction: "write" }).value;
    expect(Math.abs(bw - 24985) / 24985).toBeLessThan(0.003);
    expect(r.warnings.some((w) => w.startsWith("slowwrite"))).toBe(false);
  });

  it("reads as fio text 3.x with its version", () => {
    expect(r.format).toBe("fio text 3.x");
    expect(r.toolVersion).toBe("3.1");
    expect(one(r.measurements, "iops", { job: "seqread", direction: "read" }).value).toBe(2558);
  });
});

describe("exactBandwidth", () => {
  const f = (t: string) => readFigure(t)!;
  it("takes the narrower agreement of two honest figures", () => {
    const v = exactBandwidth(f("1000MiB"), f("1049MB"), f("1000MiB"), 1000);
    expect(v.corrected).toBe(false);
    expect(Math.abs(v.value - 1048576000) / 1048576000).toBeLessThan(0.0006);
  });
  it("falls back to the primary figure when nothing agrees", () => {
    expect(exactBandwidth(f("5.00MiB"), f("900kB"), null, null)).toEqual({ value: 5 * 1024 ** 2, corrected: false });
  });
  it("reads units of both bases and refuses others", () => {
    expect(f("24.0kB").value).toBe(24000);
    expect(f("1.5GiB").value).toBe(1.5 * 1024 ** 3);
    expect(readFigure("12XB")).toBeNull();
  });
});
