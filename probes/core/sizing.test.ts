import { describe, expect, it } from "vitest";
import { fioPresets } from "../fio/params";
import { IOPS_CEILING_PER_OUTSTANDING_IO, isMemoryBacked, presetSizeMiB, reachMiB, shrinkToTargetMiB, targetCeilingMiB } from "./sizing";

const GiB = 2 ** 30;
const qd1 = fioPresets["rand-read-4k"]!.params;
const qd32 = fioPresets["rand-read-4k-qd32"]!.params;
const buffered = { ...qd1, direct: false };
const disk = (freeGiB: number) => ({ freeBytes: freeGiB * GiB, fsType: "ext4", medium: "ssd" });
const shm = (freeGiB: number) => ({ freeBytes: freeGiB * GiB, fsType: "tmpfs", medium: "memory" });

describe("reachMiB: what a time-based random run can touch at most", () => {
  it("is runtime × ceiling IOPS × outstanding I/Os × block size", () => {
    // 60 s × 50 000 IOPS × 1 × 4 KiB = 11 718.75 MiB.
    expect(reachMiB(qd1)).toBeCloseTo((60 * IOPS_CEILING_PER_OUTSTANDING_IO * 4) / 1024);
    expect(reachMiB(qd32)).toBeCloseTo((30 * IOPS_CEILING_PER_OUTSTANDING_IO * 32 * 4) / 1024);
    expect(reachMiB({ ...qd1, numjobs: 4 })).toBeCloseTo(4 * reachMiB(qd1)!);
  });

  it("does not bound a single pass or a sequential run", () => {
    expect(reachMiB({ ...qd1, runtimeSec: undefined })).toBeNull();
    expect(reachMiB({ ...qd1, rw: "read" })).toBeNull();
  });
});

describe("targetCeilingMiB", () => {
  it("keeps 10 % of the free space, at least 1 GiB, free", () => {
    expect(targetCeilingMiB(8 * GiB, disk(100))).toBe(90 * 1024);
    expect(targetCeilingMiB(8 * GiB, disk(5))).toBe(4 * 1024);
    expect(targetCeilingMiB(8 * GiB, disk(0.5))).toBe(0);
  });

  it("allows a quarter of RAM on memory-backed targets, whatever they report free", () => {
    expect(targetCeilingMiB(24 * GiB, shm(12))).toBe(6 * 1024);
    expect(isMemoryBacked({ fsType: "ramfs", medium: null })).toBe(true);
    expect(isMemoryBacked({ fsType: null, medium: "memory" })).toBe(true);
    expect(isMemoryBacked({ fsType: "xfs", medium: "disk" })).toBe(false);
  });
});

describe("presetSizeMiB over host profiles", () => {
  it("small VM, 2 GiB RAM and a 20 GiB disk with 12 GiB free: within the free space", () => {
    // Direct: the reach (11.4 GiB) would fit, the free space minus 1.2 GiB (10.8) does not.
    expect(presetSizeMiB(2 * GiB, disk(12), qd1)).toBe(10 * 1024);
    // Buffered: twice the RAM.
    expect(presetSizeMiB(2 * GiB, disk(12), buffered)).toBe(4 * 1024);
    // Almost full: what is left after the margin, in 64 MiB steps; nothing when that is < 64 MiB.
    expect(presetSizeMiB(2 * GiB, disk(1.5), qd1)).toBe(512);
    expect(presetSizeMiB(2 * GiB, disk(1), qd1)).toBeNull();
  });

  it("24 GiB RAM: /dev/shm gets a quarter of RAM, not 18 GiB; a disk gets the QD1 reach, not 48 GiB", () => {
    expect(presetSizeMiB(24 * GiB, shm(12), qd1)).toBe(6 * 1024);
    expect(presetSizeMiB(24 * GiB, shm(12), buffered)).toBe(6 * 1024);
    expect(presetSizeMiB(24 * GiB, disk(500), qd1)).toBe(11 * 1024);
    // Buffered and time-based: twice the RAM would be 48 GiB, but 60 s reaches 11.4 GiB at most.
    expect(presetSizeMiB(24 * GiB, disk(500), buffered)).toBe(11 * 1024);
    // Buffered without a time bound reads the whole file: twice the RAM.
    expect(presetSizeMiB(24 * GiB, disk(500), { ...buffered, runtimeSec: undefined })).toBe(48 * 1024);
  });

  it("256 GiB RAM: RAM does not size direct runs; depth widens the reach", () => {
    expect(presetSizeMiB(256 * GiB, disk(2048), qd1)).toBe(11 * 1024);
    expect(presetSizeMiB(256 * GiB, disk(2048), qd32)).toBe(183 * 1024);
    expect(presetSizeMiB(256 * GiB, disk(2048), { ...buffered, runtimeSec: undefined })).toBe(512 * 1024);
    expect(presetSizeMiB(256 * GiB, shm(128), qd1)).toBe(11 * 1024);
  });

  it("a direct single pass keeps the preset's size, within the target", () => {
    expect(presetSizeMiB(24 * GiB, disk(500), { ...qd1, runtimeSec: undefined })).toBe(16 * 1024);
    expect(presetSizeMiB(24 * GiB, disk(10), { ...qd1, runtimeSec: undefined })).toBe(9 * 1024);
  });

  it("never proposes more than the target's ceiling, over many profiles", () => {
    for (const ram of [1, 2, 7.6, 24, 256]) {
      for (const t of [disk(3), disk(20), disk(900), shm(0.5 * ram), { freeBytes: null, fsType: "tmpfs", medium: null }]) {
        for (const p of [qd1, qd32, buffered, { ...buffered, runtimeSec: undefined }]) {
          const size = presetSizeMiB(ram * GiB, t, p);
          if (size === null) continue;
          expect(size).toBeLessThanOrEqual(targetCeilingMiB(ram * GiB, t) ?? Infinity);
          if (isMemoryBacked(t)) expect(size * 2 ** 20).toBeLessThanOrEqual((ram * GiB) / 4);
        }
      }
    }
  });

  it("says nothing when the RAM size is unknown", () => {
    expect(presetSizeMiB(null, disk(100), qd1)).toBeNull();
    expect(presetSizeMiB(0, disk(100), qd1)).toBeNull();
  });
});

describe("shrinkToTargetMiB: any preset's size within what the target holds", () => {
  it("shrinks a 1 GiB file on a target with 1.5 GiB free, and leaves a fitting one alone", () => {
    expect(shrinkToTargetMiB(1024, 8 * GiB, disk(1.5))).toBe(512);
    expect(shrinkToTargetMiB(1024, 8 * GiB, disk(100))).toBeNull();
    // tmpfs: a quarter of the 2 GiB RAM.
    expect(shrinkToTargetMiB(1024, 2 * GiB, shm(4))).toBe(512);
    // Not even 64 MiB fits: the size stays, and the server's free-space check explains the refusal.
    expect(shrinkToTargetMiB(1024, 2 * GiB, disk(1))).toBeNull();
  });
});
