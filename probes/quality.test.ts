import { describe, expect, it } from "vitest";
import { parseOutput, resolvePreset } from "./catalog";
import { fixture } from "./core/testing";
import { readRunProfile } from "./profile/read-profile";
import { qualityWarnings } from "./quality";

const GiB = 1024 ** 3;
const preset = (ref: string, extra: object = {}) => ({ ...resolvePreset(ref)?.params, target: "/srv/t", ...extra });
const ram24 = readRunProfile({ memory: { totalBytes: 24 * GiB } });

describe("qualityWarnings", () => {
  it("iozone: a file smaller than twice the RAM without -I, with how far to grow it", () => {
    const w = qualityWarnings({ probe: "iozone", params: preset("iozone:auto-64m"), profile: ram24, repeats: 5 });
    expect(w).toEqual([
      "The iozone file (64.0 MiB) is smaller than twice this host's RAM (2 × 24.0 GiB = 48.0 GiB) and goes through the page cache: reads are largely served from memory and look faster than the disk. Grow it to at least 48.0 GiB (about 768× larger) or enable direct I/O (-I).",
    ]);
  });

  it("iozone: nothing to say with -I, or with a file of twice the RAM", () => {
    expect(qualityWarnings({ probe: "iozone", params: preset("iozone:auto-64m-direct"), profile: ram24, repeats: 3 })).toEqual([]);
    expect(qualityWarnings({ probe: "iozone", params: preset("iozone:ext-article"), profile: readRunProfile({ memory: { totalBytes: 2 * GiB } }), repeats: 3 })).toEqual([]);
  });

  it("iozone: counts every process's file in throughput mode and asks for RAM when unknown", () => {
    const w = qualityWarnings({ probe: "iozone", params: preset("iozone:throughput-2"), repeats: 3 });
    expect(w).toHaveLength(1);
    expect(w[0]).toMatch(/^The iozone data set \(2 files of 32.0 MiB\) runs through the page cache and this host's RAM size is unknown/);
  });

  it("dd: without direct I/O or without fdatasync", () => {
    const one = (ref: string) => qualityWarnings({ probe: "dd", params: preset(ref, { sizeMiB: 256 }), repeats: 3 });
    expect(one("dd:write-direct")).toEqual([]);
    expect(one("dd:read-direct")).toEqual([]);
    expect(one("dd:write-nosync")[0]).toMatch(/without oflag=direct and without conv=fdatasync: .* memory speed/);
    expect(one("dd:write-buffered")[0]).toMatch(/through the page cache \(no oflag=direct\)/);
    const noSync = qualityWarnings({ probe: "dd", params: { target: "/t", sizeMiB: 64, fdatasync: false }, repeats: 3 });
    expect(noSync[0]).toMatch(/Add conv=fdatasync/);
    const bufferedRead = qualityWarnings({ probe: "dd", params: { target: "/t", sizeMiB: 64, mode: "read", direct: false }, repeats: 3 });
    expect(bufferedRead[0]).toMatch(/iflag=direct/);
  });

  it("sar: coarse interval, too few samples, a run cut short", () => {
    expect(qualityWarnings({ probe: "sar", params: preset("sar:all") })).toEqual([]);
    expect(qualityWarnings({ probe: "sar", params: preset("sar:all", { interval: 30 }) })).toEqual([
      "sar sampled every 30 s: bursts shorter than that are averaged away. Use an interval of 1–5 s while a benchmark runs.",
    ]);
    expect(qualityWarnings({ probe: "sar", params: preset("sar:paging", { count: 2 }) })).toEqual([
      "sar took only 2 samples: use at least 3 (better 10 or more) to tell a trend from noise.",
    ]);
    const parsed = parseOutput("sar", fixture("sar", "sar-B.txt"));
    const result = parsed.ok ? parsed.result : null;
    expect(qualityWarnings({ probe: "sar", params: preset("sar:paging", { count: 5 }), result })).toEqual([]);
    expect(qualityWarnings({ probe: "sar", params: preset("sar:paging", { count: 10 }), result })).toEqual([
      "sar stopped after 5 of 10 samples: the run was cut short.",
    ]);
  });

  it("fio: buffered I/O and very short runs", () => {
    expect(qualityWarnings({ probe: "fio", params: preset("fio:rand-read-4k"), profile: ram24, repeats: 3 })).toEqual([]);
    const w = qualityWarnings({ probe: "fio", params: preset("fio:rand-read-4k-qd32", { direct: false, runtimeSec: 5 }), profile: ram24, repeats: 3 });
    expect(w[0]).toMatch(/^The fio file \(1.0 GiB\) is smaller than twice this host's RAM .* or set direct=1\.$/);
    expect(w[1]).toMatch(/only 5 s/);
    // A buffered write job is told what its rate is, not that reads come from memory.
    const writes = qualityWarnings({ probe: "fio", params: preset("fio:seq-write", { direct: false }), profile: ram24, repeats: 3 });
    expect(writes[0]).toMatch(/^The fio file \(.*\) is written through the page cache without a sync: the rate is how fast memory took the data, .*vm\.dirty_\*.* To measure the disk, set direct=1\.$/);
    expect(writes.join(" ")).not.toMatch(/reads/);
    // Passes over a file fio drops from the cache first read the disk: no page-cache advice.
    expect(qualityWarnings({ probe: "fio", params: preset("fio:seq-read", { direct: false, blockSizeKiB: 4, loops: 6 }), profile: ram24, repeats: 3 })).toEqual([]);
  });

  it("suggests 3–5 repeats for a single benchmark run, but not for sar", () => {
    const single = qualityWarnings({ probe: "fio", params: preset("fio:seq-write") });
    expect(single).toEqual(["This is a single run: repeat it 3–5 times and compare the spread before drawing conclusions."]);
    expect(qualityWarnings({ probe: "dd", params: preset("dd:write-direct"), repeats: 2 })).toEqual([
      "Only 2 runs of this configuration: repeat it 3–5 times and compare the spread before drawing conclusions.",
    ]);
    expect(qualityWarnings({ probe: "sar", params: preset("sar:cpu"), repeats: 1 })).toEqual([]);
  });

  it("flags targets in RAM", () => {
    const w = qualityWarnings({ probe: "dd", params: preset("dd:write-direct"), profile: readRunProfile({ target: { fsType: "tmpfs" } }), repeats: 3 });
    expect(w).toEqual(["The target is on tmpfs, which lives in RAM: the results measure memory, not a disk."]);
  });

  it("says nothing about unknown probes or invalid parameters", () => {
    expect(qualityWarnings({ probe: "hdparm", params: {} })).toEqual([]);
    expect(qualityWarnings({ probe: "dd", params: { target: "x" } })).toEqual([]);
  });
});
