import { describe, expect, it } from "vitest";
import { expectError, expectOk, fixture, one } from "../core/testing";
import { parseSar } from "./parse";
import { dayNumber } from "./time";

const parse = (name: string) => expectOk(parseSar(fixture("sar", name)));

describe("sysstat 5–7 layouts (fixtures written per sar.c of 5.0.5 and 6.0.1)", () => {
  it("a report of one-column tables only (-c proc/s, -w cswch/s) parses, across midnight", () => {
    const r = parse("old-sar-5.0.5-c-w-midnight.txt");
    const rows = (metric: string) =>
      r.measurements.filter((m) => m.metric === metric && m.dims.time !== "average").map((m) => `${m.dims.day}@${m.dims.time}=${m.value}`);
    expect(rows("proc/s")).toEqual(["1@23:59:58=3", "1@23:59:59=1", "2@00:00:00=0", "2@00:00:01=5"]);
    expect(rows("cswch/s")).toEqual(["1@23:59:58=412", "1@23:59:59=398.51", "2@00:00:00=1204", "2@00:00:01=377.25"]);
    expect(one(r.measurements, "proc/s", { time: "average" })).toMatchObject({ value: 2.25, unit: "1/s", dims: { section: "tasks" } });
    expect(one(r.measurements, "cswch/s", { time: "average" }).value).toBe(597.94);
    expect(r.measurements).toHaveLength(10);
    expect(r.warnings).toEqual([]);
  });

  it("a lone word after a time is not taken for a one-column header", () => {
    expect(expectError(parseSar("12:00:01 AM    hello\n12:00:02 AM    5.00\n"))).toBe("not sar output: no sar table found");
  });

  it("the combined memory+swap table of -r: swap columns in the swap section, as sar -S and sadf -j file them", () => {
    const r = parse("old-sar-6.0.1-r-memswap.txt");
    expect(one(r.measurements, "kbmemfree", { time: "10:10:01" })).toMatchObject({ value: 120412, unit: "kB", dims: { section: "memory" } });
    expect(one(r.measurements, "%memused", { time: "10:30:01" }).value).toBe(95.27);
    expect(one(r.measurements, "kbswpused", { time: "10:30:01" })).toMatchObject({ value: 12288, dims: { section: "swap" } });
    expect(one(r.measurements, "%swpused", { time: "average" })).toMatchObject({ value: 0.26, dims: { section: "swap" } });
    expect(one(r.measurements, "kbswpcad", { time: "10:10:01" }).dims.section).toBe("swap");
    expect(r.measurements).toHaveLength(4 * 9);
  });

  it("-I SUM -P ALL: the sum row and the per-CPU interrupt table share the metric intr/s", () => {
    const r = parse("old-sar-6.0.1-I-SUM-P-ALL.txt");
    const intr = r.measurements.filter((m) => m.dims.section === "interrupts");
    expect(new Set(intr.map((m) => m.metric))).toEqual(new Set(["intr/s"]));
    expect(one(r.measurements, "intr/s", { time: "14:00:10", intr: "sum" }).value).toBe(1043.2);
    expect(one(r.measurements, "intr/s", { time: "14:00:10", intr: "0", cpu: "0" })).toMatchObject({ value: 1000.1, unit: "1/s" });
    expect(one(r.measurements, "intr/s", { time: "14:00:20", intr: "14", cpu: "1" }).value).toBe(2.9);
    expect(one(r.measurements, "intr/s", { time: "average", intr: "14", cpu: "0" }).value).toBe(13.75);
    // "N/A" (an interrupt that changed between samples) is left out, not read as a broken row.
    expect(intr.filter((m) => m.dims.time === "14:00:20" && m.dims.intr === "8").map((m) => m.dims.cpu)).toEqual(["1"]);
    expect(r.warnings).toEqual([]);
  });

  it("daily reports pasted together: days follow the banners' dates and keep increasing", () => {
    const r = parse("old-sar-6.0.1-u-three-days.txt");
    const rows = r.measurements.filter((m) => m.metric === "%user" && m.dims.time !== "average").map((m) => `${m.dims.day}@${m.dims.time}`);
    expect(rows).toEqual(["1@10:10:01", "1@10:20:01", "2@11:10:01", "2@11:20:01", "4@09:10:01", "4@09:20:01"]);
    const averages = r.measurements.filter((m) => m.metric === "%user" && m.dims.time === "average").map((m) => `${m.dims.segment}=${m.value}`);
    expect(averages).toEqual(["1=11.5", "2=21.5", "3=31.5"]);
  });

  it("reads the banner dates sar prints in its locales", () => {
    expect(dayNumber("2021-05-03")! - dayNumber("05/02/21")!).toBe(1);
    expect(dayNumber("03.05.2021")! - dayNumber("05/02/2021")!).toBe(1);
    expect(dayNumber("2021年05月03日")! - dayNumber("2021년 05월 02일")!).toBe(1);
    expect(dayNumber("25/12/2021")).toBe(dayNumber("2021-12-25"));
    expect(dayNumber("_x86_64_")).toBeNull();
  });
});

describe("sadf -j with only CPU frequency", () => {
  it("-m FREQ (weighted frequency, sysstat's tests/expected.data-wghfreq-sadf-j) parses", () => {
    const r = parse("upstream-sadf-j-m-FREQ.json");
    expect(one(r.measurements, "wghMHz", { time: "13:20:10", cpu: "all" })).toMatchObject({ value: 1123.35, dims: { section: "cpu-weighted-frequency" } });
    expect(one(r.measurements, "wghMHz", { time: "13:20:11", cpu: "1" }).value).toBe(2001);
    expect(r.warnings).toEqual([]);
  });

  it("-m CPU (clock frequency, generated here with sadf -j from sysstat's data-9.1.6) parses", () => {
    const r = parse("gen-sadf-j-m-CPU.json");
    expect(one(r.measurements, "MHz", { cpu: "all" })).toMatchObject({ value: 1634.6, dims: { section: "cpu-frequency" } });
  });

  it("the text form of -m FREQ files wghMHz in the same section", () => {
    const text = "Linux 6.1.0 (h) \t2021-05-02 \t_x86_64_\t(2 CPU)\n\n10:00:00        CPU    wghMHz\n10:00:01        all   1123.35\n10:00:01          0   1200.33\n";
    const r = expectOk(parseSar(text));
    expect(one(r.measurements, "wghMHz", { cpu: "all" }).dims.section).toBe("cpu-weighted-frequency");
  });
});

describe("sadf -d of the old layouts reads like their text", () => {
  it("per-CPU interrupt columns and the combined memory table", () => {
    const csv = [
      "# hostname;interval;timestamp;CPU;i000/s;i001/s",
      "web2;10;2021-05-02 14:00:10 UTC;1;12.50;0.40",
      "# hostname;interval;timestamp;kbmemfree;kbmemused;%memused;kbbuffers;kbcached;kbswpfree;kbswpused;%swpused;kbswpcad",
      "web2;10;2021-05-02 14:00:10 UTC;120412;1934888;94.14;80312;1502211;4182716;10240;0.24;2048",
    ].join("\n");
    const r = expectOk(parseSar(csv));
    expect(one(r.measurements, "intr/s", { intr: "1", cpu: "1" })).toMatchObject({ value: 0.4, dims: { section: "interrupts" } });
    expect(one(r.measurements, "kbswpused", {}).dims.section).toBe("swap");
    expect(one(r.measurements, "kbmemfree", {}).dims.section).toBe("memory");
  });
});
