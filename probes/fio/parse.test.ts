import { describe, expect, it } from "vitest";
import { expectError, expectOk, fixture, one } from "../core/testing";
import { parseFio } from "./parse";

const parse = (name: string) => expectOk(parseFio(fixture("fio", name)));

describe("fio 3.x JSON (fio 3.33 fixtures)", () => {
  it("sequential write: bw, iops, latencies and every percentile; unused directions as fio reports them (zeros)", () => {
    const r = parse("fio-seqwrite.json");
    expect(r.toolVersion).toBe("3.33");
    expect(r.format).toBe("fio JSON 3.x");
    expect(r.warnings).toEqual([]);
    const dims = { job: "seqwrite", direction: "write" };
    const write = r.measurements.filter((m) => m.dims.direction === "write");
    expect(write.slice(0, 3)).toEqual([
      { metric: "bw", value: 1667300968, unit: "B/s", dims },
      { metric: "iops", value: 1590.062112, unit: "1/s", dims },
      { metric: "lat_mean", value: 626578.394531, unit: "ns", dims },
    ]);
    expect(one(write, "clat_p99")).toEqual({ metric: "clat_p99", value: 1777664, unit: "ns", dims });
    // fio 3.33 prints 17 completion-latency percentiles by default.
    expect(write.filter((m) => m.metric.startsWith("clat_p")).map((m) => m.metric)).toEqual([
      "clat_p1", "clat_p5", "clat_p10", "clat_p20", "clat_p30", "clat_p40", "clat_p50", "clat_p60", "clat_p70",
      "clat_p80", "clat_p90", "clat_p95", "clat_p99", "clat_p99.5", "clat_p99.9", "clat_p99.95", "clat_p99.99",
    ]);
    for (const direction of ["read", "trim"]) {
      expect(one(r.measurements, "bw", { direction }).value).toBe(0);
      expect(one(r.measurements, "iops", { direction }).value).toBe(0);
    }
  });

  it.each([
    ["fio-randread4k.json", "randread4k", "read", 63942974, 15611.077784, 185344],
    ["fio-randread4k-libaio-qd32.json", "rr-libaio", "read", 340999676, 83251.874063, 1908736],
    ["fio-randread4k-io_uring-qd32.json", "rr-io_uring", "read", 319872063, 78093.765586, 1581056],
    ["fio-seqwrite-loop-ext3.json", "seqwrite", "write", 994205392, 948.148148, 3555328],
    ["fio-seqwrite-loop-ext4.json", "seqwrite", "write", 741534408, 707.18232, 2670592],
    ["fio-seqwrite-loop-xfs.json", "seqwrite", "write", 775825017, 739.884393, 2572288],
    ["fio-shm-direct.json", "shm-direct", "write", 5162220307, 4923.076923, 1875968],
  ])("%s", (name, job, direction, bw, iops, p99) => {
    const ms = parse(name).measurements;
    // Every measurement has its direction except the latency buckets, which fio counts per job.
    expect(new Set(ms.filter((m) => m.metric !== "lat_share").map((m) => m.dims.direction))).toEqual(new Set(["read", "write", "trim"]));
    expect(one(ms, "bw", { job, direction }).value).toBe(bw);
    expect(one(ms, "iops", { job, direction }).value).toBe(iops);
    expect(one(ms, "clat_p99", { job, direction }).value).toBe(p99);
  });

  it("reads lat_mean of the random read run", () => {
    expect(one(parse("fio-randread4k-libaio-qd32.json").measurements, "lat_mean", { direction: "read" }).value).toBe(383934.91734);
  });
});

describe("fio 2.x JSON", () => {
  it("converts KiB/s and µs, and reports both directions of a mixed job", () => {
    const r = parse("hand-fio-2.2.10-randrw.json");
    expect(r.toolVersion).toBe("2.2.10");
    const read = { job: "randrw-4k", direction: "read" };
    const write = { job: "randrw-4k", direction: "write" };
    expect(one(r.measurements, "bw", read).value).toBe(11707 * 1024);
    expect(one(r.measurements, "iops", write).value).toBe(1254.31);
    expect(one(r.measurements, "lat_mean", read).value).toBeCloseTo(313020, 6);
    expect(one(r.measurements, "clat_p99", write).value).toBe(1020000);
    // The unused trim direction is kept, with fio's zeros.
    expect(one(r.measurements, "bw", { job: "randrw-4k", direction: "trim" }).value).toBe(0);
    expect(r.format).toBe("fio JSON 2.x");
  });
});

describe("fio errors and noise", () => {
  it("explains the failed unaligned direct-I/O job with fio's own lines", () => {
    const err = expectError(parseFio(fixture("fio", "fio-error-unaligned-direct.json")));
    expect(err).toMatch(/^fio job "bad" failed with error 22 \(Invalid argument\): first direct IO errored\. File system may not support direct IO/);
  });

  it("reads the JSON after error lines printed before it (stdout + stderr merged)", () => {
    const text = `${fixture("fio", "fio-error-unaligned-direct.stderr.txt")}\n${fixture("fio", "fio-seqwrite.json")}`;
    const r = expectOk(parseFio(text));
    expect(one(r.measurements, "bw", { direction: "write" }).value).toBe(1667300968);
    expect(r.warnings.join()).toMatch(/io_u error on file target\/bad\.0\.0/);
  });

  it("tolerates text after the JSON", () => {
    const r = expectOk(parseFio(`${fixture("fio", "fio-seqwrite.json")}\nfio: file hash not empty on exit\n`));
    expect(one(r.measurements, "iops", { direction: "write" }).value).toBe(1590.062112);
  });

  it("rejects fio's human-readable output and other text", () => {
    expect(expectError(parseFio("seqwrite: (g=0): rw=write, bs=(R) 1024KiB-1024KiB\nfio-3.33\nStarting 1 process\n"))).toMatch(/--output-format=json/);
    expect(expectError(parseFio(fixture("sar", "sadf-B-d-r-u.json")))).toBe('not fio JSON output: no "jobs" array');
    expect(expectError(parseFio('{"fio version": "fio-3.33", "jobs": []}'))).toMatch(/no job that transferred data/);
  });
});
