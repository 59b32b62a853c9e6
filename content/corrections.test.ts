/**
 * Pins the corrections of a fact-by-fact review of the guides against the source articles:
 * each test asserts that the wrong claim is gone and the corrected one is present, and where
 * the source capture is at hand (../shared/seeds), that it says what the correction relies on.
 */
import fs from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { resolvePreset } from "../probes/catalog";
import { getDataset, getGuide, type Guide } from "./load";

const SEEDS_DIR = path.resolve(process.cwd(), "..", "shared", "seeds");
const seed = (prefix: string): string | null => {
  if (!fs.existsSync(SEEDS_DIR)) return null;
  const file = fs.readdirSync(SEEDS_DIR).find((f) => f.startsWith(prefix));
  return file ? fs.readFileSync(path.join(SEEDS_DIR, file), "utf8") : null;
};

function guide(slug: string): Guide {
  const g = getGuide(slug);
  if (!g) throw new Error(`guide ${slug} not found`);
  return g;
}

/** The text of one level-2 section of a guide body. */
function section(g: Guide, heading: string): string {
  const m = new RegExp(`^## ${heading}\\n([\\s\\S]*?)(?=^## |(?![\\s\\S]))`, "m").exec(g.body);
  if (!m) throw new Error(`${g.slug} has no section "${heading}"`);
  return m[1]!;
}

describe("1. filesystem-metadata-create-drop: XFS creates and drops at different rates", () => {
  const g = guide("filesystem-metadata-create-drop");
  it("no longer says XFS runs at a similar pace for both", () => {
    expect(g.body).not.toMatch(/similar pace/);
    expect(g.body).toContain("XFS about three times (1000 against 333)");
  });
  it("matches the rates dataset: DROP about three times CREATE on XFS", () => {
    const rates = getDataset("create-drop-50k-rates")!.rows;
    const xfs = (phase: string) => rates.find((r) => r.fs === "xfs" && r.engine !== "InnoDB" && r.phase === phase)?.value as number;
    expect(Math.round(xfs("DROP") / xfs("CREATE"))).toBe(3);
  });
});

describe("2. filesystem-metadata-create-drop: one new LVM volume", () => {
  const g = guide("filesystem-metadata-create-drop");
  it("does not claim the volume was re-created per file system", () => {
    expect(g.body).not.toMatch(/re-created with each file system/);
    expect(section(g, "The original setup")).toContain("one new 10 GB LVM volume");
  });
  it("matches the article", () => {
    const text = seed("004");
    if (text) expect(text).toContain("I created a new LVM volume, 10GB in size");
  });
});

describe("3. erlang-smp: write_concurrency came in R13B02, read_concurrency in R14B", () => {
  const g = guide("erlang-smp");
  const tunable = g.frontmatter.tunables.find((t) => t.name === "ETS read_concurrency / write_concurrency")!;
  it("says so in the body and in the tunable entry", () => {
    expect(g.body).not.toMatch(/available since R14B\)/);
    expect(g.body).not.toMatch(/`read_concurrency` and `write_concurrency` \(R14B\)/);
    expect(g.body).toContain("`write_concurrency` since R13B02");
    expect(g.body).toContain("`read_concurrency` since R14B");
    expect(tunable.recommended).toMatch(/read_concurrency \(read-mostly; since R14B\)/);
    expect(tunable.recommended).toMatch(/write_concurrency \(concurrent writers; since R13B02\)/);
  });
});

describe("4. erlang-smp: author as printed, Findings in our own structure", () => {
  const g = guide("erlang-smp");
  it("gives no surname the capture does not print, and says so", () => {
    expect(g.frontmatter.source.author).toBe("Kenneth (Erlang/OTP team, Ericsson)");
    expect(g.frontmatter.source.note).toMatch(/prints no surname/);
    const text = seed("001");
    if (text) {
      expect(text).toContain("by.Kenneth Erlang/OTP team, Ericsson");
      expect(text).not.toMatch(/Lundin/);
    }
  });
  it("groups the findings by topic instead of following the note's order", () => {
    const findings = section(g, "Findings");
    const subheadings = [...findings.matchAll(/^### (.+)$/gm)].map((m) => m[1]);
    expect(subheadings).toEqual([
      "Shared structures were the limit",
      "Sizing and placing schedulers",
      "Locking has a price even without contention",
      "What to expect from scaling",
      "How the VM was being improved",
    ]);
    expect(findings).not.toMatch(/note 1|note 2/i);
    // The bottleneck table comes first, where the translated note ends with it.
    expect(findings.indexOf("| Shared structure |")).toBeLessThan(findings.indexOf("taskset"));
  });
});

describe("5. linux-memory-numa-databases: two default settings, no per-host query rate", () => {
  const g = guide("linux-memory-numa-databases");
  it("names the two settings made default and THP as a separate decision", () => {
    expect(g.body).not.toMatch(/three settings/);
    expect(g.body).toContain("the two settings LinkedIn made the default on all its production systems (zone reclaim off, `numactl --interleave=all`)");
    expect(g.body).toMatch(/separate decision to disable THP/);
  });
  it("gives the query rate as the article does", () => {
    expect(g.body).not.toMatch(/thousands per second per host/);
    expect(g.body).toContain("tens of thousands of queries per second (the article gives no per-host rate)");
    const text = seed("003");
    if (text) {
      // "以上兩種設置…" = "the two settings above [became the default on all our production systems]".
      expect(text).toContain("以上兩種設置");
      expect(text).toContain("GraphDB每秒鐘都要處理成千上萬條查詢請求");
    }
  });
});

describe("6. mysql-select-mirroring-failover: a simple key lookup; buffer pool size not given", () => {
  const g = guide("mysql-select-mirroring-failover");
  it("does not call it a primary-key lookup", () => {
    expect(g.body).not.toMatch(/same primary-key lookup/);
    expect(g.body).toContain("a simple key lookup");
  });
  it("marks 'dozens of gigabytes' as the article's general remark", () => {
    expect(g.body).not.toMatch(/Buffer pools were "in the dozens of gigabytes"/);
    expect(section(g, "The original setup")).toMatch(/no buffer pool size .* for this customer; its remark about pools "in the dozens of gigabytes" is a general one/);
    const text = seed("000");
    if (text) expect(text).toContain("A simple key lookup ran in tens of milliseconds");
  });
});

describe("7. rails-sql-session-store: the published installation command", () => {
  const g = guide("rails-sql-session-store");
  // Kept in two pieces so this file does not itself hold a 12-word run of the source.
  const repository = "piston import http://rails-fast-sessions.googlecode.com/svn/trunk/";
  it("quotes it exactly", () => {
    const destination = "vendor/plugins/fast_sessions";
    expect(g.body).toContain(`${repository} ${destination}\n`);
    expect(g.body).not.toMatch(/cd vendor\/plugins/);
    const text = seed("001");
    if (text) expect(text).toContain(`$ ${repository} ${destination}`);
  });
});

describe("8. baidu-sorted-random-write: the swapped 2850 / 2 million is our reading", () => {
  const d = getDataset("baidu-sorted-random-write")!;
  const volume = d.rows.find((r) => r.metric === "data volume (garbled)")!;
  const writes = d.rows.find((r) => r.metric === "number of writes (garbled)")!;
  it("flags both values as interpretation and quotes what the capture prints", () => {
    expect(volume).toMatchObject({ value: 2850, unit: "MB", published: 'printed as "2850 random writes"' });
    expect(writes).toMatchObject({ value: 2000000, unit: "writes", published: 'printed as "2 million MB of data"' });
    expect(String(volume.reading)).toMatch(/^our interpretation of garbled text/);
    expect(String(writes.reading)).toMatch(/^our interpretation of garbled text/);
    for (const r of d.rows.filter((x) => x !== volume && x !== writes)) expect(r.reading).toBe("as published");
    expect(d.note).toMatch(/literally says "only 2 million MB of data" and "2850 random writes"/);
  });
  it("matches the capture", () => {
    const text = seed("002");
    if (text) {
      expect(text).toContain("only 2 million MB of data");
      expect(text).toContain("it is actually 2850 random writes");
    }
  });
});

describe("9. zoneinfo-watermarks-2013: 'a given host'", () => {
  it("does not place the excerpt on a GraphDB host", () => {
    const d = getDataset("zoneinfo-watermarks-2013")!;
    expect(d.title).not.toMatch(/GraphDB host/);
    expect(d.title).toContain("on a given host");
  });
});

describe("Since then: what a 2026 reader would trip on", () => {
  it("ext2/3/4: ext3 mounted by ext4 since 4.3, ext2 deprecated, 128-byte inodes kept by conversion", () => {
    const since = section(guide("ext2-ext3-ext4-iozone"), "Since then");
    expect(since).toMatch(/deleted in Linux 4\.3/);
    expect(since).toMatch(/ext2 driver is deprecated\*\* since Linux 6\.9/);
    expect(since).toMatch(/converted in place keeps the 128-byte inodes/);
    expect(section(guide("ext2-ext3-ext4-iozone"), "What to tune")).toMatch(/keeps the inode size/);
  });

  it("storage: single-queue schedulers gone in 5.0, NVMe on none, tmpfs O_DIRECT since 6.6", () => {
    const g = guide("storage-media-disk-flash-memory");
    const since = section(g, "Since then");
    expect(since).toMatch(/Linux 5\.0 removed them/);
    expect(since).toMatch(/`none` for devices with several hardware queues, which is what NVMe drives usually run/);
    expect(since).toMatch(/refused O_DIRECT until Linux 6\.6/);
    expect(section(g, "Reproduce on your host")).toMatch(/tmpfs accepts O_DIRECT only since Linux 6\.6/);
  });

  it("storage: the 100 writes/s cap is labelled as 2009-era advice in the action item", () => {
    const tune = section(guide("storage-media-disk-flash-memory"), "What to tune");
    expect(tune).toMatch(/The 100\/s figure belongs to 2009–2010 hardware/);
    expect(tune).toMatch(/innodb_io_capacity/);
  });

  it("storage: Reproduce buttons run the QD1 synchronous presets", () => {
    const g = guide("storage-media-disk-flash-memory");
    expect(g.body).toContain('<Reproduce preset="fio:rand-read-4k" label="Random 4 KB reads, one synchronous thread (fio, QD1)" />');
    expect(g.body).toContain('<Reproduce preset="fio:rand-write-4k" label="Random 4 KB writes, one synchronous thread (fio, QD1)" />');
    expect(getDataset("baidu-media-random-4k")!.reference).toMatchObject({ preset: "fio:rand-read-4k", writePreset: "fio:rand-write-4k" });
    // …which measure like the article: one thread, one synchronous 4 KB request at a time.
    for (const [ref, rw] of [["fio:rand-read-4k", "randread"], ["fio:rand-write-4k", "randwrite"]] as const) {
      expect(resolvePreset(ref)?.params).toMatchObject({ rw, blockSizeKiB: 4, ioengine: "psync", iodepth: 1, numjobs: 1, direct: true });
    }
    expect(resolvePreset("fio:rand-read-4k-qd32")?.params).toMatchObject({ ioengine: "libaio", iodepth: 32 });
  });
});

describe("10. filesystem-metadata-create-drop: the 50,000-table references are not a floor", () => {
  const g = guide("filesystem-metadata-create-drop");
  const reproduce = section(g, "Reproduce on your host");
  it("says MySQL 5.1 synced each .frm and the probe syncs nothing", () => {
    expect(reproduce).not.toMatch(/so they are a floor/);
    expect(reproduce).toMatch(/`sync_frm` was on by default/);
    expect(reproduce).toContain("dev.mysql.com/worklog/task/?id=8216");
    expect(reproduce).toMatch(/creates empty files and syncs nothing/);
    expect(reproduce).toMatch(/tens of times faster/);
  });
});

describe("11. what the kernel really does, and what the tables really say", () => {
  it("storage: dirty ratios are shares of available (dirtyable) memory, not of all memory", () => {
    const g = guide("storage-media-disk-flash-memory");
    expect(g.body).not.toMatch(/\| % of memory dirty/);
    expect(g.body).toMatch(/\| `dirty_ratio` \| 40 \| % of available memory dirty/);
    expect(g.body).toMatch(/free pages plus reclaimable page cache, not total RAM/);
    for (const name of ["vm.dirty_ratio", "vm.dirty_background_ratio"]) {
      expect(g.frontmatter.tunables.find((t) => t.name === name)!.why).toMatch(/share of available memory \(free plus reclaimable pages/);
    }
  });

  it("numa: THP defrag does nothing once enabled=never, and its default is madvise", () => {
    const g = guide("linux-memory-numa-databases");
    const defrag = g.frontmatter.tunables.find((t) => t.name === "/sys/kernel/mm/transparent_hugepage/defrag")!;
    expect(defrag.why).not.toMatch(/needed to fully switch THP off/);
    expect(defrag.why).toMatch(/With enabled=never .* defrag has no effect/);
    expect(defrag.recommended).toMatch(/madvise \(the kernel default since Linux 4\.6\)/);
    expect(section(g, "What to tune")).toMatch(/with `enabled=never` the defrag setting no longer matters/);
  });

  it("metadata: InnoDB's runs already depended on the file system", () => {
    const g = guide("filesystem-metadata-create-drop");
    const t = g.frontmatter.tunables.find((x) => x.name === "innodb_file_per_table")!;
    expect(t.why).not.toMatch(/now apply to InnoDB too/);
    expect(t.why).toMatch(/already depended on the file system \(XFS 12m 48s against 21m 11s on ext3\)/);
    expect(section(g, "What to tune")).not.toMatch(/these metadata costs now apply to InnoDB/);
  });

  it("multicore: a Since then section on automatic NUMA balancing meets the --membind advice, sourced", () => {
    const since = section(guide("multicore-memory-bandwidth"), "Since then");
    expect(since).toMatch(/Automatic NUMA balancing \(Linux 3\.8, `kernel\.numa_balancing`\)/);
    expect(since).toMatch(/--membind/);
    expect(since).toContain("https://docs.kernel.org/admin-guide/sysctl/kernel.html#numa-balancing");
  });

  it("both XFS guides say the V4 format is deprecated (Linux 5.10) and to be removed in 2030, sourced", () => {
    for (const slug of ["xfs-preallocation-ndb", "filesystem-metadata-create-drop"]) {
      const since = section(guide(slug), "Since then");
      expect(since).toMatch(/Linux 5\.10 .*deprecated|deprecated it/);
      expect(since).toMatch(/September 2030/);
      expect(since).toContain("https://docs.kernel.org/admin-guide/xfs.html");
    }
  });

  it("ext: record rewrites on ext2 are about 15 % ahead of ext4 and 26 % ahead of ext3, as the dataset says", () => {
    const g = guide("ext2-ext3-ext4-iozone");
    expect(g.body).toMatch(/record rewrites by about 15 % against ext4 and 26 % against ext3/);
    const rows = getDataset("ext-iozone-2009")!.rows.filter((r) => r.operation === "record_rewrite");
    const sum = (fs: string) => rows.filter((r) => r.fs === fs).reduce((s, r) => s + (r.value as number), 0);
    expect(Math.round((sum("ext2") / sum("ext4") - 1) * 100)).toBe(15);
    expect(Math.round((sum("ext2") / sum("ext3") - 1) * 100)).toBe(26);
  });

  it("rails: the three different effects get a panel (and an axis) each", () => {
    const ds = getDataset("fastsessions-gains")!;
    expect(ds.chart.facet).toBe("effect");
    expect(new Set(ds.rows.map((r) => r.effect)).size).toBe(3);
  });
});
