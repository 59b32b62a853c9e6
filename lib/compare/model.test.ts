import { describe, expect, it } from "vitest";
import { buildComparison } from "./model";
import { parseRunIds } from "./run-ids";
import { compareRun, ddResult, fixtureResult } from "./testing";
import { suggestTitle } from "./title";

describe("iozone section", () => {
  const result = fixtureResult("iozone", "iozone-auto-64m-alltests-R.txt");
  const slower = { ...result, measurements: result.measurements.map((m) => ({ ...m, value: m.value / 2 })) };
  const m = buildComparison(
    [compareRun({ probe: "iozone", params: { preset: "auto" }, result }), compareRun({ probe: "iozone", params: { preset: "auto" }, fsType: "xfs", result: slower })],
    { fold: true },
  );
  const s = m.sections[0]!;

  it("draws one chart per operation (13) over record size on a log₂ axis, in MiB/s", () => {
    expect(s.probe).toBe("iozone");
    expect(s.charts.map((c) => c.title)).toEqual([
      "write", "rewrite", "read", "re-read", "random read", "random write", "backward read",
      "record rewrite", "stride read", "fwrite", "frewrite", "fread", "freread",
    ]);
    const write = s.charts[0]!;
    expect(write).toMatchObject({ kind: "line", xKind: "log2", yUnit: "MiB/s", group: "65536", seriesKeys: ["s0", "s1"] });
    expect(write.xTicks).toEqual([2, 3, 4, 5, 6, 7, 8]);
    expect(write.rows[0]).toMatchObject({ x: 2, xLabel: "4 KiB" });
    // 1464782 KB/s (KiB/s) in the fixture's first cell.
    // Six significant digits of 1464782 / 1024 = 1430.45117…
    expect(write.rows[0]!.stats.s0?.median).toBe(1430.45);
    expect(write.rows[0]!.stats.s1?.median).toBe(715.226);
  });

  it("offers the file sizes and a table row per operation and record size", () => {
    expect(s.groups).toEqual([{ id: "65536", label: "file 64 MiB" }]);
    expect(s.defaultGroup).toBe("65536");
    expect(s.table.rows).toHaveLength(91);
    expect(s.table.rows[0]).toMatchObject({ metric: "write", dims: "record 4 KiB", unit: "MiB/s", better: "higher" });
  });

  it("sees the file-system difference", () => {
    expect(m.differs.fields.map((f) => f.id)).toContain("fsType");
    expect(suggestTitle(m)).toBe("iozone: ext4 vs xfs");
  });

  it("picks the file size most series have", () => {
    const other = { ...result, measurements: result.measurements.map((x) => ({ ...x, dims: { ...x.dims, file_kib: 1024 } })) };
    const mm = buildComparison([compareRun({ probe: "iozone", result }), compareRun({ probe: "iozone", result: other }), compareRun({ probe: "iozone", result: other })], { fold: false });
    // No size is common to all three: the group of each series' largest file opens, so every series is drawn.
    expect(mm.sections[0]!.groups?.map((g) => g.id)).toEqual(["largest", "1024", "65536"]);
    expect(mm.sections[0]!.defaultGroup).toBe("largest");
    const shared = buildComparison([compareRun({ probe: "iozone", result }), compareRun({ probe: "iozone", fsType: "xfs", result }), compareRun({ probe: "iozone", result: other })], { fold: false });
    expect(shared.sections[0]!.groups?.map((g) => g.id)).toEqual(["largest", "1024", "65536"]);
    const common = buildComparison([compareRun({ probe: "iozone", result: other }), compareRun({ probe: "iozone", fsType: "xfs", result: other })], { fold: false });
    expect(common.sections[0]!.groups?.map((g) => g.id)).toEqual(["1024"]);
    expect(common.sections[0]!.defaultGroup).toBe("1024");
  });
});

/** Bytes per second as the compare page shows them: MiB/s to 6 significant digits. */
const mib = (bytesPerSecond: number) => Number((bytesPerSecond / 2 ** 20).toPrecision(6));

describe("dd section", () => {
  // Direction from params.mode, the preset, or unknown: probes/dd/direction.test.ts.
  it("groups bars by direction from params.mode, the preset, or unknown for imports", () => {
    const m = buildComparison(
      [
        compareRun({ result: ddResult(150e6) }),
        compareRun({ params: { target: "/srv/probebook", sizeMiB: 256, mode: "read" }, result: ddResult(180e6) }),
        compareRun({ origin: "IMPORTED", params: {}, hostKey: "label:old", hostName: "old", profile: null, fsType: null, medium: null, result: ddResult(90e6) }),
      ],
      { fold: true },
    );
    const chart = m.sections[0]!.charts[0]!;
    expect(chart.rows.map((r) => r.x)).toEqual(["write", "read", "unknown direction"]);
    // dd prints MB/s (10⁶); every view shows MiB/s (2²⁰).
    expect(chart.yUnit).toBe("MiB/s");
    expect(chart.rows[0]!.stats.s0?.median).toBe(mib(150e6));
    expect(chart.rows[1]!.stats.s1?.median).toBe(mib(180e6));
    expect(chart.rows[2]!.stats.s2?.median).toBe(mib(90e6));
    expect(m.sections[0]!.notes.join(" ")).toMatch(/unknown direction/);
  });
});

describe("dd write and read of one setup", () => {
  const setup = { target: "/mnt/ext3", sizeMiB: 256, blockSizeKiB: 1024, direct: true };
  const w = (v: number) => compareRun({ params: { ...setup, mode: "write", fdatasync: true }, result: ddResult(v) });
  const r = (v: number) => compareRun({ params: { ...setup, mode: "read", fdatasync: false }, result: ddResult(v) });

  it("become one series with a bar in each direction group", () => {
    const m = buildComparison([w(100e6), r(150e6), compareRun({ fsType: "xfs", params: { ...setup, target: "/mnt/xfs", mode: "write", fdatasync: true }, result: ddResult(120e6) })], { fold: true });
    expect(m.series.map((s) => s.runIds.length)).toEqual([2, 1]);
    expect(m.series[0]!.label).toBe("db1 · disk · ext4 · 2026-11-21");
    const rows = m.sections[0]!.charts[0]!.rows;
    expect(rows.map((x) => [x.x, x.stats.s0?.median, x.stats.s1?.median])).toEqual([
      ["write", mib(100e6), mib(120e6)],
      ["read", mib(150e6), undefined],
    ]);
    // fdatasync of the read is not a difference.
    expect(m.differs.fields.map((f) => f.id)).toEqual(["fsType"]);
  });
  it("fold repeats per direction and say how many of each", () => {
    const m = buildComparison([w(100e6), w(110e6), r(150e6), r(160e6), r(170e6)], { fold: true });
    expect(m.series).toHaveLength(1);
    expect(m.series[0]!.label).toBe("db1 · disk · ext4 · 2026-11-21 (2 writes, 3 reads)");
    const stats = m.sections[0]!.charts[0]!.rows.map((x) => x.stats.s0);
    expect(stats.map((st) => [st?.n, st?.median])).toEqual([
      [2, mib(105e6)],
      [3, mib(160e6)],
    ]);
  });
  it("stay apart when repeats are not folded, or two write setups compete", () => {
    expect(buildComparison([w(100e6), r(150e6)], { fold: false }).series).toHaveLength(2);
    const nosync = compareRun({ params: { ...setup, mode: "write", fdatasync: false }, result: ddResult(900e6) });
    const m = buildComparison([w(100e6), nosync, r(150e6)], { fold: true });
    expect(m.series.map((s) => s.runIds.length)).toEqual([2, 1]);
    expect(m.differs.fields.map((f) => f.id)).toEqual(["ddSync"]);
  });
});

describe("fio section", () => {
  it("lines runs up by direction, with bandwidth, IOPS, p99 latency, the percentile curve and the latency histogram", () => {
    const a = fixtureResult("fio", "fio-randread4k-libaio-qd32.json");
    const b = fixtureResult("fio", "fio-randread4k-io_uring-qd32.json");
    const m = buildComparison([compareRun({ probe: "fio", params: { engine: "libaio" }, result: a }), compareRun({ probe: "fio", params: { engine: "io_uring" }, result: b })], { fold: true });
    const s = m.sections[0]!;
    expect(s.charts.map((c) => [c.title, c.yUnit])).toEqual([
      ["bandwidth", "MiB/s"],
      ["IOPS", "IOPS"],
      ["p99 completion latency", "µs"],
      ["completion latency percentiles, read", "µs"],
      ["latency histogram", "% of I/Os"],
    ]);
    expect(s.charts[0]!.rows.map((r) => r.x)).toEqual(["read"]);
    // The curve: one point per nine, each series a line.
    expect(s.charts[3]!.rows.map((r) => r.x)).toEqual(["p50", "p90", "p99", "p99.9", "p99.99"]);
    expect(s.charts[3]!.rows[2]!.stats.s0?.median).toBe(Number((a.measurements.find((x) => x.metric === "clat_p99")!.value / 1000).toPrecision(6)));
    const bw = a.measurements.find((x) => x.metric === "bw")!.value;
    expect(s.charts[0]!.rows[0]!.stats.s0?.median).toBe(Number((bw / 2 ** 20).toPrecision(6)));
    const p99 = a.measurements.find((x) => x.metric === "clat_p99")!.value;
    expect(s.charts[2]!.rows[0]!.stats.s0?.median).toBe(Number((p99 / 1000).toPrecision(6)));
    expect(s.table.rows.find((r) => r.metric === "p99 completion latency")?.better).toBe("lower");
    // Each figure once in the Values table: the curve's p99 is the p99 row itself.
    const shown = s.table.rows.map((r) => `${r.metric} | ${r.dims}`);
    expect(shown.filter((x) => x.startsWith("p99 completion latency"))).toEqual(["p99 completion latency | read"]);
    expect(new Set(shown).size).toBe(shown.length);
  });
});

describe("sar section", () => {
  it("overlays the reclaim and I/O columns on elapsed seconds", () => {
    const m = buildComparison([compareRun({ probe: "sar", params: { sections: ["B"] }, result: fixtureResult("sar", "hand-sar-12.7.5-B-novmeff.txt") }), compareRun({ probe: "sar", params: { sections: ["B", "d", "r", "u"] }, result: fixtureResult("sar", "gen-sar-B-d-r-u.txt") })], { fold: true });
    const s = m.sections[0]!;
    const ids = s.charts.map((c) => c.id);
    expect(ids).toEqual(["sar-pgscank-s", "sar-pgscand-s", "sar-pgsteal-s", "sar-vm-efficiency", "sar-majflt-s", "sar-util", "sar-await", "sar-kbdirty", "sar-iowait"]);
    const eff = s.charts.find((c) => c.id === "sar-vm-efficiency")!;
    expect(eff.yUnit).toBe("%");
    expect(eff.rows).toEqual([{ x: 0, xLabel: "0 s", stats: { s0: { n: 1, median: 90, min: 90, max: 90, cv: null } } }]);
    expect(s.charts.find((c) => c.id === "sar-util")!.seriesKeys).toEqual(["s1"]);
  });
});

describe("a long sar run", () => {
  it("a one-hour sar run is drawn with 600 points", () => {
    const hh = (s: number) => `${String(10 + Math.floor(s / 3600)).padStart(2, "0")}:${String(Math.floor(s / 60) % 60).padStart(2, "0")}:${String(s % 60).padStart(2, "0")}`;
    const measurements = Array.from({ length: 3600 }, (_, s) => ({ metric: "majflt/s", value: s % 7, unit: "1/s", dims: { section: "paging", time: hh(s) } }));
    const m = buildComparison([compareRun({ probe: "sar", result: { tool: "sar", toolVersion: null, measurements, warnings: [] } })], { fold: true });
    const chart = m.sections[0]!.charts.find((c) => c.id === "sar-majflt-s")!;
    expect(chart.rows).toHaveLength(600);
    expect(chart.rows[1]?.x).toBe(6);
    expect(chart.rows[1]?.stats.s0?.median).toBeCloseTo((6 + 0 + 1 + 2 + 3 + 4) / 6, 4);
    expect(m.sections[0]!.notes.join(" ")).toMatch(/mean of 6 s of samples/);
  });
});

describe("a whole comparison", () => {
  it("skips runs without a result and orders sections by probe", () => {
    const m = buildComparison(
      [compareRun({ probe: "fio", result: fixtureResult("fio", "fio-randread4k.json") }), compareRun({ status: "RUNNING", result: null, label: "busy" }), compareRun()],
      { fold: true },
    );
    expect(m.sections.map((s) => s.probe)).toEqual(["dd", "fio"]);
    expect(m.skipped).toEqual([expect.objectContaining({ label: "busy", reason: "no result (running)" })]);
  });
  it("gives every series a distinct label", () => {
    const m = buildComparison([compareRun({ label: "db1 · disk · ext4 · 2026-11-21", params: { mode: "write", blockSizeKiB: 4 } }), compareRun({ label: "db1 · disk · ext4 · 2026-11-21", params: { mode: "write", blockSizeKiB: 8 } })], { fold: true });
    expect(m.series.map((s) => s.label)).toEqual(["db1 · disk · ext4 · 2026-11-21", "db1 · disk · ext4 · 2026-11-21 #2"]);
  });
});

describe("parseRunIds", () => {
  const id = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, "0")}`;
  it("splits, lower-cases and de-duplicates, keeping order", () => {
    expect(parseRunIds(`${id(2)},${id(1).toUpperCase()}, ${id(2)}`)).toEqual({ ids: [id(2), id(1)], invalid: [], dropped: 0 });
    expect(parseRunIds([id(1), id(3)]).ids).toEqual([id(1), id(3)]);
    expect(parseRunIds(undefined)).toEqual({ ids: [], invalid: [], dropped: 0 });
  });
  it("reports entries that are not ids and caps the count at 30", () => {
    expect(parseRunIds("nope,../x").invalid).toEqual(["nope", "../x"]);
    const many = parseRunIds(Array.from({ length: 33 }, (_, i) => id(i + 1)).join(","));
    expect(many.ids).toHaveLength(30);
    expect(many.dropped).toBe(3);
  });
});

describe("iozone runs of different file sizes", () => {
  // A reference run of 4 GiB files beside one's own 64 MiB run: no file size in common.
  const own = fixtureResult("iozone", "iozone-auto-64m-alltests-R.txt");
  const reference = { ...own, measurements: own.measurements.map((m) => ({ ...m, dims: { ...m.dims, file_kib: 4 * 1024 * 1024 } })) };
  const m = buildComparison(
    [compareRun({ probe: "iozone", params: { preset: "auto" }, result: own }), compareRun({ probe: "iozone", params: { preset: "auto" }, fsType: "xfs", result: reference })],
    { fold: true },
  );
  const s = m.sections[0]!;

  it("opens on a group that draws both, each at its largest file", () => {
    expect(s.defaultGroup).toBe("largest");
    expect(s.groups?.[0]?.label).toBe("each series' largest file (64 MiB, 4 GiB)");
    const write = s.charts.find((c) => c.group === s.defaultGroup && c.title.startsWith("write"))!;
    expect(write.seriesKeys).toEqual(["s0", "s1"]);
    expect(write.rows[0]!.stats.s0?.median).toBe(1430.45);
    expect(write.rows[0]!.stats.s1?.median).toBe(1430.45);
  });

  it("keeps the exact file sizes as groups of their own", () => {
    expect(s.groups?.map((g) => g.id)).toEqual(["largest", "65536", "4194304"]);
    expect(s.charts.filter((c) => c.group === "65536").every((c) => c.seriesKeys.join() === "s0")).toBe(true);
  });
});

describe("runs their telemetry flagged", () => {
  it("are drawn, and the model lists them with what was found", () => {
    const cached = { code: "cache-served-read", title: "Read served by the page cache", evidence: "the device read 0 MiB while dd read 256 MiB" };
    const m = buildComparison([compareRun({ result: ddResult(150e6) }), compareRun({ id: "b", result: ddResult(9e9), flags: [cached] })], { fold: false });
    expect(m.series).toHaveLength(2);
    expect(m.flagged).toEqual([{ id: "b", label: expect.any(String), flags: [cached] }]);
  });
  it("are not listed when nothing was found", () => {
    expect(buildComparison([compareRun({ result: ddResult(150e6), flags: [] })], { fold: true }).flagged).toEqual([]);
  });
});
