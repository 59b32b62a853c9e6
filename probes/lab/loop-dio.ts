// A lab image attached as a loop device with direct I/O, so the lab's own O_DIRECT writes reach
// the backing disk instead of stopping in the backing file system's page cache (without it a
// "direct" dd in the lab leaves about a gigabyte Dirty on the host and the arms' figures depend on
// writeback timing, not on the file system under test).
//
// `losetup --direct-io=on` asks the kernel to open the backing file with O_DIRECT (losetup(8),
// util-linux: "--direct-io[=on|off] Enable or disable direct I/O for the backing file"; see
// https://manpages.ubuntu.com/manpages/impish/en/man8/losetup.8.html). Whether the kernel kept it
// is published as LO_FLAGS_DIRECT_IO and in /sys/block/loopN/loop/dio (kernel commit 2e5ab5f379f9,
// "block: loop: prepare for supporing direct IO": "LO_FLAGS_DIRECT_IO flag for userspace to know if
// direct IO is used to access backing file"). A backing file system without O_DIRECT (ramfs) makes
// losetup fail with EINVAL; others may attach and leave dio at 0. Either way the lab still works,
// buffered, and the run's setup report says so with the reason.
import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

export type LabKind = "loop-dio" | "loop-buffered" | "device";

export interface LoopAttach {
  loopDevice: string;
  kind: LabKind;
  dio: boolean;
  /** Why direct I/O is not in effect (null when it is). */
  dioReason: string | null;
}

/** /sys/block/loopN/loop/dio: "1" when the loop device reads and writes its backing file with O_DIRECT. */
export function readLoopDio(loopDevice: string, sysRoot = "/sys"): string | null {
  try {
    return fs.readFileSync(path.join(sysRoot, "block", path.basename(loopDevice), "loop", "dio"), "utf8").trim();
  } catch {
    return null;
  }
}

/**
 * What a loop device is, from what the kernel says now (`dio` as read from sysfs, null when
 * unreadable) and why the direct-I/O attach was refused, if it was. Pure, so the buffered case
 * is tested without a file system that refuses.
 */
export function loopKindOf(dio: string | null, refused: string | null): Omit<LoopAttach, "loopDevice"> {
  if (dio === "1") return { kind: "loop-dio", dio: true, dioReason: null };
  const reason = refused
    ? `losetup --direct-io=on was refused (${refused}); the image is attached without direct I/O`
    : dio === null
      ? "the loop device's dio state could not be read from sysfs"
      : "the kernel left direct I/O off for this loop device (the backing file system or its block size does not allow O_DIRECT)";
  return { kind: "loop-buffered", dio: false, dioReason: reason };
}

/** Attaches `image` to a free loop device, with direct I/O when the backing file system allows it. */
export async function attachLoop(image: string, sysRoot = "/sys"): Promise<LoopAttach> {
  let refused: string | null = null;
  let loopDevice: string;
  try {
    loopDevice = (await run("losetup", ["--direct-io=on", "--find", "--show", image])).stdout.trim();
  } catch (err) {
    const e = err as Error & { stderr?: string };
    refused = (e.stderr || e.message).trim().slice(0, 300);
    loopDevice = (await run("losetup", ["--find", "--show", image])).stdout.trim();
  }
  return { loopDevice, ...loopKindOf(readLoopDio(loopDevice, sysRoot), refused) };
}
