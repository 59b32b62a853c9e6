import { execFileSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { parseDiskstats, parseMeminfo, parseProcStat, parseVmstat } from "./proc-text";
import { TelemetrySampler } from "./sampler";
import { deviceOfDirectory, splitDev } from "./target-device";

const tmpDirs: string[] = [];
afterEach(() => {
  for (const d of tmpDirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});

/** A /proc and /sys tree in a temp dir whose counters the test sets. */
function fakeRoot() {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), "pb-telemetry-"));
  tmpDirs.push(root);
  fs.mkdirSync(path.join(root, "proc"));
  const write = (rel: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  };
  return { root, write };
}

const meminfo = (free: number) =>
  `MemTotal:       24000000 kB\nMemFree:        ${free} kB\nMemAvailable:   20000000 kB\nBuffers:          100 kB\nCached:          3000000 kB\nDirty:              4096 kB\nWriteback:           128 kB\n`;

describe("proc text", () => {
  it("reads the aggregate cpu line, not a per-cpu one", () => {
    const c = parseProcStat("cpu0 1 1 1 1 1 1 1 1 0 0\ncpu  100 5 50 800 40 2 3 0 0 0\n");
    expect(c).toEqual({ user: 100, nice: 5, system: 50, idle: 800, iowait: 40, irq: 2, softirq: 3, steal: 0, guest: 0, guestNice: 0 });
    expect(parseProcStat("garbage")).toBeNull();
  });

  it("finds one device in diskstats, with or without the newer discard/flush fields", () => {
    const text = "   7       0 loop0 80 0 1368 3 12 0 8 1 0 0 6\n 254       0 vda 134244 20851 4334290 110809 58547 136803 8338168 44932 0 30252 158932 22409 37 1513096 2405 16613 785\n";
    expect(parseDiskstats(text, "vda")).toEqual({ reads: 134244, sectorsRead: 4334290, msReading: 110809, writes: 58547, sectorsWritten: 8338168, msWriting: 44932, msBusy: 30252, msWeighted: 158932 });
    expect(parseDiskstats(text, "loop0")?.reads).toBe(80);
    expect(parseDiskstats(text, "sdz")).toBeNull();
  });

  it("sums per-zone scan counters of old kernels and skips the per-type repeats of new ones", () => {
    const old = "pgpgin 10\npgpgout 20\npgmajfault 3\npgscan_kswapd_dma 1\npgscan_kswapd_normal 4\npgscan_direct_normal 7\npgsteal_kswapd_normal 2\npgsteal_direct_normal 5\n";
    expect(parseVmstat(old)).toEqual({ pgpgin: 10, pgpgout: 20, majflt: 3, pgscank: 5, pgscand: 7, pgsteal: 7, dirtied: 0, written: 0, dirtyThreshold: 0, backgroundThreshold: 0 });
    const current = "pgsteal_kswapd 6\npgsteal_direct 1\npgsteal_khugepaged 9\npgscan_kswapd 8\npgscan_direct 2\npgscan_direct_throttle 50\npgscan_anon 10\npgsteal_anon 7\n";
    expect(parseVmstat(current)).toMatchObject({ pgscank: 8, pgscand: 2, pgsteal: 7 });
  });

  it("reads node meminfo lines with their prefix", () => {
    expect(parseMeminfo("Node 1 MemFree:   123 kB\nNode 1 Dirty: 4 kB\n")).toEqual({ MemFree: 123, Dirty: 4 });
  });

  it("the real files of this machine parse", () => {
    expect(parseProcStat(fs.readFileSync("/proc/stat", "utf8"))?.idle).toBeGreaterThan(0);
    expect(parseMeminfo(fs.readFileSync("/proc/meminfo", "utf8")).MemTotal).toBeGreaterThan(0);
    expect(parseVmstat(fs.readFileSync("/proc/vmstat", "utf8")).pgpgin).toBeGreaterThan(0);
  });
});

describe("TelemetrySampler on a tree the test controls", () => {
  it("turns two snapshots into sar/iostat rates", async () => {
    const { root, write } = fakeRoot();
    let now = 1_000_000;
    const snap = (cpu: string, disk: string, vm: string, free: number) => {
      write("proc/stat", `cpu  ${cpu}\ncpu0 ${cpu}\n`);
      write("proc/diskstats", ` 254 0 vda ${disk}\n`);
      write("proc/vmstat", vm);
      write("proc/meminfo", meminfo(free));
    };
    const wb = (dirtied: number, written: number) => `nr_dirtied ${dirtied}\nnr_written ${written}\nnr_dirty_threshold 1000\nnr_dirty_background_threshold 500\n`;
    snap("100 0 100 700 100 0 0 0 0 0", "0 0 0 0 0 0 0 0 0 0 0", `pgpgin 0\npgpgout 0\npgmajfault 0\npgscan_direct 0\n${wb(0, 0)}`, 5000);
    const s = new TelemetrySampler({ device: "vda", root, now: () => now, pageKb: 4 });
    await s.start();
    now += 2000;
    // 2 s: 200 reads of 8 sectors taking 400 ms, 100 writes of 16 sectors taking 1000 ms,
    // busy 1500 ms, weighted 3000 ms; cpu ticks +100 usr, +50 sys, +300 iowait, +550 idle.
    snap("200 0 150 1250 400 0 0 0 0 0", "200 0 1600 400 100 0 1600 1000 0 1500 3000", `pgpgin 800\npgpgout 1600\npgmajfault 10\npgscan_direct 40\n${wb(1000, 500)}`, 4000);
    const sample = await s.sample();
    expect(sample).toEqual({
      t: 2,
      cpu: { usr: 10, sys: 5, iowait: 30, idle: 55, steal: 0 },
      device: { name: "vda", rs: 100, ws: 50, rkBs: 400, wkBs: 400, rAwait: 2, wAwait: 10, aquSz: 1.5, util: 75 },
      memory: { free: 4000, available: 20000000, cached: 3000000, dirty: 4096, writeback: 128 },
      paging: { pgpgin: 400, pgpgout: 800, majflt: 5, pgscank: 0, pgscand: 20, pgsteal: 0 },
      writeback: { dirtiedKBs: 2000, writtenKBs: 1000, limitKb: 4000, backgroundLimitKb: 2000 },
    });
  });

  it("reports free memory per NUMA node only when there is more than one", async () => {
    const { root, write } = fakeRoot();
    write("proc/stat", "cpu  1 0 1 10 0 0 0 0 0 0\n");
    write("proc/meminfo", meminfo(100));
    write("sys/devices/system/node/node0/meminfo", "Node 0 MemFree: 50 kB\n");
    const one = new TelemetrySampler({ device: null, root });
    await one.start();
    expect((await one.sample())?.numaFree).toBeUndefined();
    write("sys/devices/system/node/node1/meminfo", "Node 1 MemFree: 9000000 kB\n");
    const two = new TelemetrySampler({ device: null, root });
    await two.start();
    const sample = await two.sample();
    expect(sample?.numaFree).toEqual({ "0": 50, "1": 9000000 });
    expect(sample?.device).toBeNull();
  });

  it("never reports negative rates when a counter resets", async () => {
    const { root, write } = fakeRoot();
    write("proc/stat", "cpu  100 0 100 700 100 0 0 0 0 0\n");
    write("proc/diskstats", " 254 0 vda 500 0 500 500 500 0 500 500 0 500 500\n");
    write("proc/meminfo", meminfo(1));
    let now = 0;
    const s = new TelemetrySampler({ device: "vda", root, now: () => now });
    await s.start();
    now = 1000;
    write("proc/diskstats", " 254 0 vda 1 0 1 1 1 0 1 1 0 1 1\n");
    const d = (await s.sample())?.device;
    expect(d && Object.values(d).filter((v) => typeof v === "number").every((v) => v === 0)).toBe(true);
  });
});

describe("on this machine", () => {
  it("decodes dev_t like glibc", () => {
    expect(splitDev(BigInt((254 << 8) | 1))).toEqual({ major: 254, minor: 1 });
    // major 259 (NVMe's extended range) and minor 300 use the high bits.
    const dev = (BigInt(300 & ~0xff) << 12n) | (BigInt(259 & 0xfff) << 8n) | BigInt(300 & 0xff);
    expect(splitDev(dev)).toEqual({ major: 259, minor: 300 });
  });

  it("tmpfs has no block device", async () => {
    expect(await deviceOfDirectory("/dev/shm")).toBeNull();
  });

  it("sees a real direct write on the disk under the temp dir", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pb-telemetry-io-"));
    tmpDirs.push(dir);
    const device = await deviceOfDirectory(dir);
    if (device === null) return expect(fs.statSync(dir).dev >> 8).toBe(0); // temp dir on tmpfs
    expect(fs.readFileSync("/proc/diskstats", "utf8")).toContain(` ${device} `);
    const s = new TelemetrySampler({ device });
    await s.start();
    execFileSync("dd", ["if=/dev/zero", `of=${path.join(dir, "f")}`, "bs=1M", "count=32", "oflag=direct", "status=none"]);
    await new Promise((r) => setTimeout(r, 50));
    const sample = await s.sample();
    expect(sample?.device?.name).toBe(device);
    expect(sample?.device?.ws).toBeGreaterThan(0);
    expect(sample?.device?.wkBs).toBeGreaterThan(0);
    const cpu = sample?.cpu;
    expect(cpu && cpu.usr + cpu.sys + cpu.iowait + cpu.idle + cpu.steal).toBeGreaterThan(99);
  });
});
