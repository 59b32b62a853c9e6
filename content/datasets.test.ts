/**
 * Dataset checks: every content/data/*.json validates against the schema, and
 * spot checks of published values. The expected values below were read from
 * the source articles (/work/shared/seeds), independently of the JSON files.
 *
 * Deliberately independent of gray-matter / the guide loader.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { EXPECTED_GUIDE_SLUGS } from "./expected-guides";
import { dataDir, getDataset, listDatasets, parseDataset } from "./datasets";
import { datasetSchema, type Cell, type Dataset } from "./schema";

const GUIDE_SLUGS = EXPECTED_GUIDE_SLUGS;

function ds(id: string): Dataset {
  const d = getDataset(id);
  if (!d) throw new Error(`dataset ${id} not found`);
  return d;
}

/** The single row of dataset `id` matching all `where` cells. */
function row(id: string, where: Record<string, Cell>): Record<string, Cell> {
  const matches = ds(id).rows.filter((r) => Object.entries(where).every(([k, v]) => r[k] === v));
  if (matches.length !== 1) {
    throw new Error(`${id}: expected exactly one row for ${JSON.stringify(where)}, found ${matches.length}`);
  }
  return matches[0]!;
}

function value(id: string, where: Record<string, Cell>, column: string): Cell {
  return row(id, where)[column] ?? null;
}

describe("dataset files", () => {
  const files = fs.readdirSync(dataDir()).filter((f) => f.endsWith(".json"));

  it("has the expected number of datasets", () => {
    expect(files.length).toBe(21);
  });

  it.each(files)("%s validates against the dataset schema", (file) => {
    const full = path.join(dataDir(), file);
    expect(() => parseDataset(fs.readFileSync(full, "utf8"), full)).not.toThrow();
  });

  it("listDatasets() returns every file with unique ids", () => {
    const all = listDatasets();
    expect(all.map((d) => `${d.id}.json`).sort()).toEqual([...files].sort());
    expect(new Set(all.map((d) => d.id)).size).toBe(all.length);
  });

  it("every dataset belongs to one of the ten guides, and that guide file exists", () => {
    for (const d of listDatasets()) {
      expect(GUIDE_SLUGS, d.id).toContain(d.guide);
      expect(fs.existsSync(path.join(process.cwd(), "content", "guides", `${d.guide}.mdx`)), d.id).toBe(true);
    }
  });

  it("getDataset() returns null for unknown or unsafe ids", () => {
    expect(getDataset("no-such-dataset")).toBeNull();
    expect(getDataset("../package")).toBeNull();
  });
});

describe("dataset schema", () => {
  const base = {
    id: "x",
    title: "t",
    guide: "g",
    source: "s",
    units: { v: "KB/s" },
    columns: [
      { key: "k", label: "K" },
      { key: "v", label: "V", unit: "KB/s" },
    ],
    rows: [{ k: "a", v: 1 }],
    chart: { type: "bar", x: "k", y: "v" },
  };

  it("accepts a minimal dataset", () => {
    expect(datasetSchema.safeParse(base).success).toBe(true);
  });

  it("rejects rows with undeclared or missing columns", () => {
    expect(datasetSchema.safeParse({ ...base, rows: [{ k: "a", v: 1, extra: 2 }] }).success).toBe(false);
    expect(datasetSchema.safeParse({ ...base, rows: [{ k: "a" }] }).success).toBe(false);
  });

  it("rejects a non-numeric chart.y and unknown chart columns", () => {
    expect(datasetSchema.safeParse({ ...base, rows: [{ k: "a", v: "1" }] }).success).toBe(false);
    expect(datasetSchema.safeParse({ ...base, chart: { type: "bar", x: "k", y: "v", series: "nope" } }).success).toBe(false);
  });

  it("rejects log2 x scales on non-positive or non-numeric x", () => {
    expect(datasetSchema.safeParse({ ...base, chart: { type: "line", x: "k", y: "v", xScale: "log2" } }).success).toBe(false);
  });

  it("rejects bad reference blocks", () => {
    const withRef = (reference: unknown) => datasetSchema.safeParse({ ...base, reference }).success;
    expect(withRef({ probe: "iozone", host: "h", year: 2009 })).toBe(true);
    expect(withRef({ probe: "iozone", preset: "ext-article", host: "h", year: 2009 })).toBe(false);
    expect(withRef({ probe: "iozone", host: "h", year: 2009, seriesToRuns: true })).toBe(false);
  });

  it("checks log axes, unit columns, annotations and pivots against the data", () => {
    const ok = (extra: object) => datasetSchema.safeParse({ ...base, ...extra }).success;
    const chart = (c: object) => ({ chart: { type: "bar", x: "k", y: "v", ...c } });
    expect(ok(chart({ yScale: "log10" }))).toBe(true);
    expect(ok({ ...chart({ yScale: "log10" }), rows: [{ k: "a", v: 0 }] })).toBe(false);
    expect(ok(chart({ unitColumn: "k" }))).toBe(true);
    expect(ok(chart({ unitColumn: "nope" }))).toBe(false);
    expect(ok(chart({ annotations: [{ from: "a", label: "odd" }] }))).toBe(true);
    expect(ok(chart({ annotations: [{ from: "b", label: "odd" }] }))).toBe(false);
    expect(ok(chart({ annotations: [{ facet: "x", from: "a", label: "odd" }] }))).toBe(false);
    expect(ok({ pivot: { row: "k", column: "k", value: "v" } })).toBe(true);
    expect(ok({ pivot: { row: "k", column: "nope", value: "v" } })).toBe(false);
  });

  it("names the file and the issue when a dataset is invalid", () => {
    expect(() => parseDataset(JSON.stringify({ ...base, rows: [] }), "/tmp/x.json")).toThrow(/x\.json[\s\S]*rows/);
    expect(() => parseDataset("{ not json", "/tmp/y.json")).toThrow(/y\.json/);
    expect(() => parseDataset(JSON.stringify(base), "/tmp/other-name.json")).toThrow(/does not match the file name/);
  });
});

describe("ext2/ext3/ext4 IOzone table (Linux 2.6.28.2, IOzone 3.318)", () => {
  const id = "ext-iozone-2009";
  const ops = [
    "write", "rewrite", "read", "reread", "random_read", "random_write", "backward_read",
    "record_rewrite", "stride_read", "fwrite", "frewrite", "fread", "freread",
  ];
  const v = (fs_: string, operation: string, record_kb: number) => value(id, { fs: fs_, operation, record_kb }, "value");

  it("has 3 file systems × 7 record sizes × 13 operations", () => {
    const d = ds(id);
    expect(d.rows).toHaveLength(273);
    expect(new Set(d.rows.map((r) => r.operation))).toEqual(new Set(ops));
    expect(new Set(d.rows.map((r) => r.record_kb))).toEqual(new Set([4, 8, 16, 32, 64, 128, 256]));
    expect(new Set(d.rows.map((r) => r.fs))).toEqual(new Set(["ext2", "ext3", "ext4"]));
    expect(d.units.value).toBe("KB/s");
  });

  it("keeps ext2 cells as published", () => {
    expect(v("ext2", "write", 4)).toBe(218680);
    expect(v("ext2", "read", 4)).toBe(630248);
    expect(v("ext2", "random_read", 64)).toBe(503227);
    expect(v("ext2", "record_rewrite", 128)).toBe(2656729);
    expect(v("ext2", "freread", 256)).toBe(247101);
  });

  it("keeps ext3 cells as published", () => {
    expect(v("ext3", "read", 4)).toBe(482132);
    expect(v("ext3", "random_write", 8)).toBe(190454);
    expect(v("ext3", "fread", 16)).toBe(514177);
    expect(v("ext3", "stride_read", 32)).toBe(338785);
    expect(v("ext3", "backward_read", 256)).toBe(834240);
  });

  it("keeps ext4 cells as published, including the 32 KB / 64 KB anomalies", () => {
    expect(v("ext4", "write", 8)).toBe(226028);
    expect(v("ext4", "frewrite", 4)).toBe(220620);
    expect(v("ext4", "read", 32)).toBe(240426);
    expect(v("ext4", "read", 64)).toBe(308696);
    expect(v("ext4", "reread", 64)).toBe(551577);
    expect(v("ext4", "random_read", 64)).toBe(754941);
    expect(v("ext4", "random_write", 32)).toBe(175977);
    expect(v("ext4", "fwrite", 64)).toBe(227030);
    expect(v("ext4", "freread", 128)).toBe(274237);
    expect(v("ext4", "record_rewrite", 256)).toBe(2215381);
  });

  it("is marked as a reference IOzone result with the article's file size", () => {
    const ref = ds(id).reference;
    expect(ref).toMatchObject({ probe: "iozone", preset: "iozone:ext-article", fileKiB: 4194304, year: 2009, seriesToRuns: true });
  });

  it("keeps the time totals", () => {
    const t = "ext-iozone-time-2009";
    expect(row(t, { fs: "ext2", metric: "real" })).toMatchObject({ published: "28m12.718s", seconds: 1692.718 });
    expect(row(t, { fs: "ext3", metric: "sys" })).toMatchObject({ published: "7m17.049s", seconds: 437.049 });
    expect(row(t, { fs: "ext4", metric: "real" })).toMatchObject({ published: "27m3.485s", seconds: 1623.485 });
    expect(row(t, { fs: "ext4", metric: "user" })).toMatchObject({ published: "0m10.847s", seconds: 10.847 });
  });
});

describe("Baidu storage article", () => {
  it("media throughput (MB/s)", () => {
    const s = "baidu-media-sequential";
    const r = "baidu-media-random-4k";
    expect(value(s, { medium: "disk", operation: "sequential read" }, "value")).toBe(145.59);
    expect(value(s, { medium: "disk", operation: "sequential write" }, "value")).toBe(83.1);
    expect(value(s, { medium: "flash", operation: "sequential read" }, "value")).toBe(61.5);
    expect(value(s, { medium: "flash", operation: "sequential write" }, "value")).toBe(59.8);
    expect(value(s, { medium: "memory", operation: "sequential write" }, "value")).toBe(1655);
    expect(value(r, { medium: "disk", operation: "random read" }, "value")).toBe(0.91);
    expect(value(r, { medium: "disk", operation: "random write" }, "value")).toBe(0.34);
    expect(value(r, { medium: "flash", operation: "random read" }, "value")).toBe(14.9);
    expect(value(r, { medium: "flash", operation: "random write" }, "value")).toBe(1.93);
    expect(value(r, { medium: "memory", operation: "random write" }, "value")).toBe(1496);
    expect(row(r, { medium: "flash", operation: "random read" })).toMatchObject({ io_kb: 4, total_mb: 381 });
  });

  it("InnoDB on SLC flash, read-only", () => {
    const id = "baidu-innodb-slc-read-only";
    expect(value(id, { unit: "req/s" }, "value")).toBe(4700);
    expect(value(id, { metric: "Maximum response time" }, "value")).toBe(139374);
    expect(value(id, { metric: "Average response time" }, "value")).toBe(8535);
  });

  it("InnoDB read/write tables on SLC and MLC flash", () => {
    const slc = "baidu-innodb-slc-rw-conflict";
    const mlc = "baidu-innodb-mlc-write-optimised";
    expect(ds(slc).rows).toHaveLength(10);
    expect(row(slc, { case: "reads 40×40 + writes 1×100", direction: "read" })).toMatchObject({ offered_threads: 40, offered_per_thread: 40, achieved: 1500 });
    expect(row(slc, { case: "reads 40×40 + writes 1×100", direction: "write" })).toMatchObject({ offered_per_thread: 100, achieved: 80 });
    expect(row(slc, { case: "reads 40×80 + writes 1×300", direction: "read" })).toMatchObject({ achieved: 2000 });
    expect(row(slc, { case: "reads 40×80 + writes 1×300", direction: "write" })).toMatchObject({ achieved: 60 });
    expect(row(slc, { case: "writes 1×1000", direction: "write" })).toMatchObject({ offered_per_thread: 1000, achieved: 300 });
    expect(row(mlc, { case: "reads 40×1000", direction: "read" })).toMatchObject({ achieved: 8300 });
    expect(row(mlc, { case: "reads 40×80 + writes 1×200", direction: "read" })).toMatchObject({ achieved: 2900 });
    expect(row(mlc, { case: "reads 40×125 + writes 1×200", direction: "read" })).toMatchObject({ achieved: 4000 });
    expect(row(mlc, { case: "reads 40×125 + writes 1×200", direction: "write" })).toMatchObject({ offered_per_thread: 200, achieved_published: "160 ~ 190" });
  });

  it("multithread random read table (1–50 threads, microseconds)", () => {
    const id = "baidu-multithread-random-read";
    // [threads, mean µs per read, µs for 100 reads]
    const expected: Array<[number, number, number]> = [
      [50, 48351, 96595],
      [20, 25450, 126755],
      [10, 15987, 149206],
      [5, 12976, 251765],
      [1, 13291, 1329574],
    ];
    for (const [threads, avg, total] of expected) {
      expect(value(id, { threads, metric: "time for 100 reads" }, "value")).toBe(total);
      expect(value(id, { threads, metric: "mean time per read" }, "value")).toBe(avg);
    }
  });

  it("sorted vs fully random writes", () => {
    const id = "baidu-sorted-random-write";
    expect(value(id, { method: "sorted in memory first", metric: "total write time" }, "value")).toBe(1645);
    expect(value(id, { method: "sorted in memory first", metric: "disk r/s" }, "value")).toBe(1000);
    expect(value(id, { metric: "speed-up" }, "value")).toBe(5);
    expect(value(id, { method: "fully random", metric: "total write time" }, "value")).toBe(7200);
  });

  it("ubrpc network figures", () => {
    const id = "baidu-ubrpc-network";
    expect(row(id, { scenario: "same data center", packet_bytes: 13000, client_threads: 8 })).toMatchObject({ rate_per_s: 9000, nic_mb: 122 });
    expect(row(id, { scenario: "same data center", packet_bytes: 1700, client_threads: 36 })).toMatchObject({ rate_per_s: 28000, nic_mb: 50.3 });
    expect(row(id, { scenario: "cross data center" })).toMatchObject({ rate_per_s: 860, nic_mb: 1.4, latency_us: 817 });
  });
});

describe("LinkedIn GraphDB (zone reclaim)", () => {
  it("host and segment figures", () => {
    const id = "graphdb-figures-2013";
    expect(value(id, { item: "physical memory" }, "value")).toBe(48);
    expect(value(id, { item: "memory in use" }, "value")).toBe(20);
    expect(value(id, { item: "mmap'd data files (off-heap)" }, "value")).toBe(15);
    expect(value(id, { item: "JVM heap" }, "value")).toBe(5);
    expect(value(id, { item: "active segments per host" }, "value")).toBe(1500);
    expect(value(id, { item: "writable segments" }, "value")).toBe(25);
    expect(value(id, { item: "read-only segments" }, "value")).toBe(1475);
    expect(value(id, { item: "segments discarded per host per day" }, "value")).toBe(900);
    expect(value(id, { item: "direct page scans, low end" }, "value")).toBe(1_000_000);
    expect(value(id, { item: "direct page scans, high end" }, "value")).toBe(5_000_000);
  });

  it("experiment phases: 17 h with zone reclaim, 7 h without", () => {
    const id = "zone-reclaim-experiment-2013";
    expect(row(id, { phase: "zone_reclaim_mode on" })).toMatchObject({ start_h: 0, end_h: 17, duration_h: 17, active_list_gb: 20 });
    expect(row(id, { phase: "zone_reclaim_mode = 0" })).toMatchObject({ start_h: 17, end_h: 24, duration_h: 7, active_list_gb: 25 });
  });

  it("zoneinfo watermarks", () => {
    const id = "zoneinfo-watermarks-2013";
    const p = (field: string) => value(id, { field }, "pages") as number;
    expect(p("pages free")).toBe(17353);
    expect(p("min")).toBe(11284);
    expect(p("low")).toBe(14105);
    expect(p("high")).toBe(16926);
    expect(p("scanned")).toBe(0);
    expect(p("spanned")).toBe(6291456);
    expect(p("present")).toBe(6205440);
    expect(Math.round(p("min") * 1.25)).toBe(p("low"));
    expect(Math.round(p("min") * 1.5)).toBe(p("high"));
  });
});

describe("MySQL SELECT mirroring: buffer pool GB per table", () => {
  const id = "mysql-buffer-pool-skew-2009";
  const expected = [
    { table: "site.benefits", passive: 1.32, active: 8.3, mirrored: 5.73 },
    { table: ".", passive: 0.5, active: 3.13, mirrored: 0.94 },
    { table: "site.user_actions", passive: 6.29, active: 2.55, mirrored: 4.09 },
    { table: "site.user_achievements", passive: 0.35, active: 1.36, mirrored: 1.2 },
    { table: "site.clicks", passive: 5.13, active: 1.26, mirrored: 3.05 },
    { table: "site.actions_finished", passive: 0.74, active: 1.14, mirrored: 0.46 },
    { table: "site.ratings", passive: 0.48, active: 0.91, mirrored: 0.89 },
  ];
  it.each(expected)("$table: active $active, passive + SELECT $mirrored, passive $passive", ({ table, active, mirrored, passive }) => {
    expect(value(id, { db_table: table, state: "active" }, "gb")).toBe(active);
    expect(value(id, { db_table: table, state: "passive + SELECT" }, "gb")).toBe(mirrored);
    expect(value(id, { db_table: table, state: "passive" }, "gb")).toBe(passive);
  });
  it("has exactly those 7 tables × 3 states", () => {
    expect(ds(id).rows).toHaveLength(21);
  });
});

describe("memcached at Facebook", () => {
  it("UDP request rates", () => {
    const id = "memcached-facebook-udp-rates";
    expect(row(id, { setup: "stock Linux + memcached" })).toMatchObject({ udp_req_per_s: 50000 });
    expect(row(id, { setup: "modified, sustained" })).toMatchObject({ udp_req_per_s: 200000, avg_latency_us: 173 });
    expect(row(id, { setup: "modified, peak" })).toMatchObject({ udp_req_per_s: 300000 });
  });
  it("fleet size and stats lock", () => {
    const id = "memcached-facebook-fleet";
    expect(row(id, { unit: "servers" })).toMatchObject({ value: 800 });
    expect(row(id, { unit: "TB" })).toMatchObject({ value: 28 });
    const lock = ds(id).rows.filter((r) => r.unit === "%").map((r) => r.value);
    expect(lock.sort()).toEqual([20, 30]);
  });
});

describe("FastSessions percentages", () => {
  it("keeps 10–15 %, 50–90 %, 90 % and 5–15 %", () => {
    const pct = (changeStart: string) =>
      ds("fastsessions-gains")
        .rows.filter((r) => String(r.change).startsWith(changeStart))
        .map((r) => r.percent)
        .sort((a, b) => Number(a) - Number(b));
    expect(pct("index on (CRC32(session_id), session_id)")).toEqual([10, 15]);
    expect(pct("no row for empty sessions")).toEqual([50, 90]);
    expect(pct("app rarely changes the session")).toEqual([90]);
    expect(pct("app writes the session on every request")).toEqual([5, 15]);
  });
});

describe("CREATE/INSERT/SELECT/DROP of 50,000 tables", () => {
  const t = "create-drop-50k-times";
  it("MyISAM totals", () => {
    expect(row(t, { engine: "MyISAM", fs: "ext3" })).toMatchObject({ published: "15min 8sec", seconds: 908 });
    expect(row(t, { engine: "MyISAM", fs: "ext3 + dir_index" })).toMatchObject({ published: "14min 21sec", seconds: 861 });
    expect(row(t, { engine: "MyISAM", fs: "xfs" })).toMatchObject({ published: "7min 20sec", seconds: 440 });
    expect(row(t, { engine: "MyISAM", fs: "xfs, 100 MB v2 log" })).toMatchObject({ published: "7min 32sec", seconds: 452 });
    expect(row(t, { engine: "MyISAM", fs: "reiserfs v3" })).toMatchObject({ published: "9m 44sec", seconds: 584 });
  });
  it("InnoDB totals", () => {
    expect(row(t, { engine: "InnoDB", fs: "ext3" })).toMatchObject({ published: "21m 11s", seconds: 1271 });
    expect(row(t, { engine: "InnoDB", fs: "ext3 + dir_index" })).toMatchObject({ seconds: 1271 });
    expect(row(t, { engine: "InnoDB", fs: "xfs" })).toMatchObject({ published: "12m 48s", seconds: 768 });
  });
  it("tables per second", () => {
    const r = "create-drop-50k-rates";
    expect(value(r, { fs: "ext3", engine: "MyISAM", phase: "CREATE" }, "value")).toBe(100);
    expect(value(r, { fs: "reiserfs v3", engine: "MyISAM", phase: "CREATE" }, "value")).toBe(100);
    expect(value(r, { fs: "xfs", engine: "MyISAM", phase: "CREATE" }, "value")).toBe(333);
    expect(value(r, { fs: "xfs", engine: "InnoDB", phase: "CREATE" }, "value")).toBe(500);
    expect(value(r, { fs: "ext3", phase: "DROP" }, "value")).toBe(2500);
    expect(value(r, { fs: "xfs", phase: "DROP" }, "value")).toBe(1000);
    expect(ds(r).units).toEqual({ value: "tables/s" });
  });
});

describe("XFS preallocation for NDB disk data", () => {
  it("extents per file before and after", () => {
    const id = "ndb-dd-extents";
    const before = ds(id).rows.filter((r) => r.state === "before patch").map((r) => r.extents);
    expect(before).toEqual([57, 13, 212, 95, 17, 113]);
    const after = ds(id).rows.filter((r) => r.state === "with patch");
    expect(after).toHaveLength(6);
    for (const r of after) {
      expect(r.published).toBe("1 or 2");
      expect(r.extents).toBe(2);
    }
  });
  it("test times before and after", () => {
    const id = "ndb-dd-test-times";
    expect(row(id, { test: "ndb_dd_basic", state: "before patch" })).toMatchObject({ mtr_ms: 107727, real: "3m2.683s", real_s: 182.683, user: "0m1.360s", sys: "0m1.192s" });
    expect(row(id, { test: "ndb_dd_basic", state: "with patch" })).toMatchObject({ mtr_ms: 70060, real: "2m30.822s", real_s: 150.822, user: "0m1.220s", sys: "0m1.404s" });
    expect(value(id, { test: "ndb_dd_alter", state: "before patch" }, "mtr_ms")).toBe(245360);
    expect(value(id, { test: "ndb_dd_alter", state: "with patch" }, "mtr_ms")).toBe(211632);
  });
});
