import { describe, expect, it } from "vitest";
import { buildFioCommand, fioRequiredFreeBytes } from "./command";
import { fioParamsSchema, fioPresets } from "./params";
import { extractFioProgress } from "./progress";

const preset = (name: string, target = "/srv/t") => fioParamsSchema.parse({ ...fioPresets[name]?.params, target });

describe("fio params", () => {
  it("needs only a target", () => {
    expect(fioParamsSchema.parse({ target: "/t" })).toEqual({
      target: "/t", rw: "randread", blockSizeKiB: 4, sizeMiB: 256, ioengine: "psync", iodepth: 1, numjobs: 1, direct: true,
    });
  });

  it("bounds and enumerates everything that reaches argv", () => {
    const ok = (extra: object) => fioParamsSchema.safeParse({ target: "/t", ...extra }).success;
    expect(ok({ ioengine: "sync" })).toBe(false);
    expect(ok({ ioengine: "libaio", iodepth: 1025 })).toBe(false);
    expect(ok({ ioengine: "psync", iodepth: 32 })).toBe(false);
    expect(ok({ ioengine: "io_uring", iodepth: 32 })).toBe(true);
    expect(ok({ rw: "randrw", rwmixread: 70 })).toBe(true);
    expect(ok({ rw: "randrw", rwmixread: 101 })).toBe(false);
    expect(ok({ rw: "randread", rwmixread: 70 })).toBe(false);
    expect(ok({ rw: "rw" })).toBe(false);
    expect(ok({ runtimeSec: 0 })).toBe(false);
    expect(ok({ sizeMiB: 1024 * 1024 + 1 })).toBe(false);
    expect(ok({ blockSizeKiB: 3 })).toBe(false);
    expect(ok({ sizeMiB: 1, blockSizeKiB: 2048 })).toBe(false);
    expect(ok({ target: "/srv/a\\b" })).toBe(false);
    expect(ok({ numaCpuNodes: "0" })).toBe(true);
    expect(ok({ numaCpuNodes: "0,2-3" })).toBe(true);
    for (const bad of ["", "all", "0;rm", "-1", "0 1", "0,"]) expect(ok({ numaCpuNodes: bad }), bad).toBe(false);
    expect(ok({ loops: 6 })).toBe(true);
    expect(ok({ loops: 0 })).toBe(false);
    const both = fioParamsSchema.safeParse({ target: "/t", loops: 2, runtimeSec: 6 });
    expect(both.success ? null : both.error.issues[0]).toMatchObject({ path: ["loops"], message: expect.stringContaining("exclude each other") });
  });

  it("passes over the file as often as asked, and waits for every pass", () => {
    const once = buildFioCommand(fioParamsSchema.parse({ target: "/t", rw: "read", sizeMiB: 1024 }), "/t/run");
    const six = buildFioCommand(fioParamsSchema.parse({ target: "/t", rw: "read", sizeMiB: 1024, loops: 6 }), "/t/run");
    expect(once.args.some((a) => a.startsWith("--loops"))).toBe(false);
    expect(six.args).toContain("--loops=6");
    expect(six.timeoutSec - once.timeoutSec).toBe(5 * Math.ceil(1024 / 5));
  });

  it("lays a write job's file out and keeps it cached only when asked", () => {
    const plain = buildFioCommand(fioParamsSchema.parse({ target: "/t", rw: "write" }), "/t/run").args;
    expect(plain.some((a) => /^--(overwrite|invalidate)=/.test(a))).toBe(false);
    const cached = buildFioCommand(fioParamsSchema.parse({ target: "/t", rw: "write", overwrite: true, invalidate: false }), "/t/run").args;
    expect(cached).toEqual(expect.arrayContaining(["--overwrite=1", "--invalidate=0"]));
    const bad = fioParamsSchema.safeParse({ target: "/t", rw: "read", overwrite: true });
    expect(bad.success ? null : bad.error.issues[0]?.path).toEqual(["overwrite"]);
  });

  it("pins the job to NUMA nodes only when asked", () => {
    expect(buildFioCommand(fioParamsSchema.parse({ target: "/t" }), "/t/run").args.some((a) => a.startsWith("--numa_cpu_nodes"))).toBe(false);
    expect(buildFioCommand(fioParamsSchema.parse({ target: "/t", numaCpuNodes: "0" }), "/t/run").args).toContain("--numa_cpu_nodes=0");
  });

  it("has the presets other code references", () => {
    expect(Object.keys(fioPresets).sort()).toEqual([
      "rand-read-4k", "rand-read-4k-qd32", "rand-rw-4k", "rand-rw-4k-qd32", "rand-write-4k", "rand-write-4k-buffered", "rand-write-4k-qd32", "seq-read", "seq-write", "snia-iops-steady",
    ]);
  });
});

describe("fio command", () => {
  it("seq-write", () => {
    const cmd = buildFioCommand(preset("seq-write"), preset("seq-write").target);
    expect(cmd).toMatchObject({ file: "fio", cwd: "/srv/t", env: { LC_ALL: "C" }, files: ["/srv/t/probebook-fio.tmp"] });
    expect(cmd.args).toEqual([
      "--name=probebook-write", "--rw=write", "--bs=1024k", "--size=1024m", "--direct=1", "--directory=/srv/t",
      "--filename=probebook-fio.tmp", "--ioengine=psync", "--iodepth=1", "--numjobs=1",
      "--output-format=normal,json", "--eta=always", "--percentile_list=1:5:10:20:25:30:40:50:60:70:75:80:90:95:99:99.5:99.9:99.95:99.99:99.999",
      "--write_bw_log=probebook", "--write_iops_log=probebook", "--write_lat_log=probebook", "--log_avg_msec=1000",
    ]);
    // The per-second logs fio writes into the run directory go to the server with the output.
    for (const name of ["probebook_bw.1.log", "probebook_iops.12.log", "probebook_clat.1.log"]) expect(cmd.collect?.test(name)).toBe(true);
    for (const name of ["probebook_slat.1.log", "probebook_lat.1.log", "probebook-fio.tmp", "x/probebook_bw.1.log"]) expect(cmd.collect?.test(name)).toBe(false);
    expect(fioRequiredFreeBytes(preset("seq-write"))).toBe(1024 * 1024 * 1024);
  });

  it("rand-read-4k is one synchronous thread (psync, depth 1), like the Baidu article", () => {
    const cmd = buildFioCommand(preset("rand-read-4k"), "/srv/t");
    expect(cmd.args).toEqual(expect.arrayContaining(["--rw=randread", "--bs=4k", "--direct=1", "--ioengine=psync", "--iodepth=1", "--numjobs=1", "--runtime=60", "--time_based"]));
    expect(cmd.args).not.toContain("--group_reporting");
  });

  it("the mixed presets read 70 % of the time", () => {
    expect(buildFioCommand(preset("rand-rw-4k"), "/srv/t").args).toEqual(expect.arrayContaining(["--rw=randrw", "--rwmixread=70", "--ioengine=psync", "--iodepth=1", "--numjobs=1"]));
    expect(buildFioCommand(preset("rand-rw-4k-qd32"), "/srv/t").args).toEqual(expect.arrayContaining(["--rw=randrw", "--rwmixread=70", "--ioengine=libaio", "--iodepth=32"]));
    expect(buildFioCommand(fioParamsSchema.parse({ target: "/t", rw: "randrw" }), "/t").args.some((a) => a.startsWith("--rwmixread"))).toBe(false);
  });

  it("rand-read-4k-qd32 is time based with libaio at depth 32", () => {
    const cmd = buildFioCommand(preset("rand-read-4k-qd32"), "/srv/t");
    expect(cmd.args).toEqual(expect.arrayContaining(["--rw=randread", "--bs=4k", "--ioengine=libaio", "--iodepth=32", "--runtime=30", "--time_based"]));
    expect(cmd.timeoutSec).toBe(120 + 205 + 30);
  });

  it("escapes colons in the directory, which fio would split on", () => {
    expect(buildFioCommand(preset("seq-read", "/mnt/a:b"), preset("seq-read", "/mnt/a:b").target).args).toContain("--directory=/mnt/a\\:b");
  });

  it("groups reports of several jobs", () => {
    const cmd = buildFioCommand(fioParamsSchema.parse({ target: "/t", numjobs: 4 }), "/t");
    expect(cmd.args).toEqual(expect.arrayContaining(["--numjobs=4", "--group_reporting"]));
  });
});

describe("fio progress", () => {
  it("is null before fio says anything and finished once its report arrives", () => {
    expect(extractFioProgress("", preset("seq-write"))).toBeNull();
    expect(extractFioProgress('{\n  "fio version" : "fio-3.33",', preset("seq-write"))).toMatchObject({ fraction: 1 });
  });

  it("reads ETA lines when fio prints them", () => {
    const text = "Jobs: 1 (f=1)\rJobs: 1 (f=1): [r(1)][75.0%][r=71.5MiB/s][r=18.3k IOPS][eta 00m:01s]\r";
    expect(extractFioProgress(text, preset("rand-read-4k"))).toMatchObject({ done: 75, total: 100, fraction: 0.75, unit: "%", label: "75.0 %, r=71.5MiB/s, ETA 00m:01s" });
  });
});
