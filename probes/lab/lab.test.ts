import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { checkMountOptions, MIN_IMAGE_BYTES } from "./file-systems";
import { availableLabFs, checkLabDir, Lab } from "./lab";
import { checkLabDevice } from "./lab-device";
import { LabJournal } from "./lab-journal";
import { attachLoop, loopKindOf, readLoopDio } from "./loop-dio";
import { labImageBytesFor, labVolumeTooSmall } from "./sizing";

const isRoot = process.getuid?.() === 0;
const dirs: string[] = [];
const labs: Lab[] = [];
afterEach(async () => {
  // A failed assertion must not leave mounts behind for the next test or the next run.
  for (const lab of labs.splice(0)) await lab.cleanupLeftovers();
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});
function newLab(labDir: string, stateDir: string) {
  const lab = new Lab(labDir, stateDir);
  labs.push(lab);
  return lab;
}
/** Lab and state dirs on the disk (not /tmp, which may be tmpfs), under the project's data dir. */
function diskDir(prefix: string) {
  const base = path.join(process.cwd(), ".data", "lab-tests");
  fs.mkdirSync(base, { recursive: true });
  const d = fs.mkdtempSync(path.join(base, prefix));
  dirs.push(d);
  return d;
}
const mounted = (p: string) => fs.readFileSync("/proc/self/mountinfo", "utf8").includes(` ${p} `);
const loopsOf = (image: string) => execFileSync("losetup", ["-j", image], { encoding: "utf8" }).trim();

describe("mount options", () => {
  it("are checked against a list per file system, never passed through as free text", () => {
    expect(checkMountOptions("xfs", ["noatime", "logbsize=256k"])).toEqual({ ok: true });
    expect(checkMountOptions("ext4", ["logbsize=256k"])).toMatchObject({ ok: false });
    expect(checkMountOptions("ext4", ["noatime,exec"])).toMatchObject({ ok: false });
    expect(checkMountOptions("ext4", ["data=journal", "commit=30"])).toEqual({ ok: true });
  });
});

describe("lab volume size", () => {
  it("is at least four times what the probe writes, plus a margin, and never below the mkfs.xfs floor", () => {
    const MiB = 2 ** 20;
    expect(labImageBytesFor(0)).toBe(MIN_IMAGE_BYTES);
    expect(labImageBytesFor(16 * MiB)).toBe(MIN_IMAGE_BYTES);
    for (const probe of [100 * MiB, 512 * MiB, 3 * 2 ** 30 + 1]) {
      const image = labImageBytesFor(probe);
      expect(image).toBeGreaterThanOrEqual(4 * probe);
      expect(image % MiB).toBe(0);
      expect(labVolumeTooSmall(image, probe)).toBeNull();
      expect(labVolumeTooSmall(image - MiB, probe)).toMatch(/at most a quarter of its lab volume/);
    }
  });
});

describe("loop direct I/O decision", () => {
  it("is loop-dio only when sysfs says 1; otherwise buffered, with the reason", () => {
    expect(loopKindOf("1", null)).toEqual({ kind: "loop-dio", dio: true, dioReason: null });
    expect(loopKindOf("0", null)).toMatchObject({ kind: "loop-buffered", dio: false, dioReason: expect.stringMatching(/left direct I\/O off/) });
    expect(loopKindOf("0", "losetup: failed to set up loop device: Invalid argument")).toMatchObject({
      kind: "loop-buffered",
      dioReason: expect.stringMatching(/^losetup --direct-io=on was refused \(losetup: failed/),
    });
    expect(loopKindOf(null, null)).toMatchObject({ dio: false, dioReason: expect.stringMatching(/could not be read/) });
  });
});

describe.skipIf(isRoot)("without root", () => {
  it("the lab is refused with the reason", async () => {
    expect(await checkLabDir(os.tmpdir())).toEqual({ ok: false, error: expect.stringContaining("--lab needs root") });
  });
});

describe.skipIf(!isRoot)("loop-mounted lab file systems (needs root: mount, losetup)", () => {
  it("refuses a missing directory and a remote or virtual one", async () => {
    expect(await checkLabDir("/no/such/dir")).toMatchObject({ ok: false, error: expect.stringContaining("no such directory") });
    expect(await checkLabDir("/proc")).toMatchObject({ ok: false });
    expect(await checkLabDir(diskDir("ok-"))).toMatchObject({ ok: true });
  });

  it("makes ext3, ext4 and xfs of the same size, reports the driver, and leaves nothing behind", async () => {
    const labDir = diskDir("lab-");
    const lab = newLab(labDir, diskDir("state-"));
    const have = await availableLabFs();
    expect(have).toEqual(expect.arrayContaining(["ext3", "ext4", "xfs"]));
    const made = [];
    for (const fsType of ["ext3", "ext4", "xfs"] as const) made.push(await lab.create(fsType, MIN_IMAGE_BYTES, fsType === "xfs" ? ["noatime"] : []));
    for (const m of made) {
      expect(mounted(m.mountPoint)).toBe(true);
      expect(m.loopDevice).toMatch(/^\/dev\/loop\d+$/);
      // Direct I/O on the backing file, as the kernel reports it.
      expect(readLoopDio(m.loopDevice)).toBe("1");
      expect(m).toMatchObject({ kind: "loop-dio", dio: true, dioReason: null, device: null });
      expect(fs.statSync(m.image).size).toBe(MIN_IMAGE_BYTES);
      // Allocated, not sparse.
      expect(fs.statSync(m.image).blocks * 512).toBeGreaterThanOrEqual(MIN_IMAGE_BYTES);
      expect((fs.statSync(path.dirname(m.image)).mode & 0o777).toString(8)).toBe("700");
      fs.writeFileSync(path.join(m.mountPoint, "probe"), "x");
    }
    const [ext3, ext4, xfs] = made;
    expect(ext3?.driver).toBe("ext4"); // ext3 is served by the ext4 driver since Linux 4.3
    expect(ext4?.driver).toBe("ext4");
    expect(xfs?.driver).toBe("xfs");
    expect(xfs?.mountOptions).toContain("noatime");
    expect(ext4?.mkfsCommand).toBe("mkfs.ext4 -F -q -E nodiscard <image>");
    for (const m of made) expect(await lab.destroyByMountPoint(m.mountPoint)).toEqual([]);
    for (const m of made) {
      expect(mounted(m.mountPoint)).toBe(false);
      expect(fs.existsSync(m.image)).toBe(false);
    }
    expect(fs.readdirSync(labDir)).toEqual([]);
  });

  it("refuses a mount option the file system is not offered and cleans the attempt", async () => {
    const labDir = diskDir("lab-");
    const lab = newLab(labDir, diskDir("state-"));
    await expect(lab.create("ext4", MIN_IMAGE_BYTES, ["logbsize=256k"])).rejects.toThrow(/not offered for ext4/);
    await expect(lab.create("ext4", 1024)).rejects.toThrow(/at least/);
    expect(fs.readdirSync(labDir)).toEqual([]);
  });

  it("after a SIGKILL with a file system mounted, the next start takes it down", async () => {
    const labDir = diskDir("lab-");
    const stateDir = diskDir("state-");
    const script = `
      import { Lab } from ${JSON.stringify(path.join(import.meta.dirname, "lab.ts"))};
      const lab = new Lab(${JSON.stringify(labDir)}, ${JSON.stringify(stateDir)});
      await lab.create("ext4", ${MIN_IMAGE_BYTES});
      process.kill(process.pid, "SIGKILL");
    `;
    const file = path.join(stateDir, "make-and-die.mjs");
    fs.writeFileSync(file, script);
    const child = spawnSync(process.execPath, ["--import", "tsx", file], { encoding: "utf8" });
    expect(child.signal).toBe("SIGKILL");
    const [left] = new LabJournal(stateDir).entries();
    expect(left && mounted(left.mountPoint)).toBe(true);
    const restarted = newLab(labDir, stateDir);
    expect(await restarted.cleanupLeftovers()).toEqual({ removed: 1, problems: [] });
    expect(mounted(left?.mountPoint ?? "")).toBe(false);
    expect(loopsOf(left?.image ?? "/nonexistent")).toBe("");
    expect(fs.readdirSync(labDir)).toEqual([]);
  });

  it("an image sized for a 100 MiB probe holds four times the probe's file, and an O_DIRECT write in it goes through", async () => {
    const lab = newLab(diskDir("lab-"), diskDir("state-"));
    const probe = 100 * 2 ** 20;
    const m = await lab.create("ext4", labImageBytesFor(probe));
    expect(fs.statSync(m.image).size).toBeGreaterThanOrEqual(4 * probe);
    expect(readLoopDio(m.loopDevice)).toBe("1");
    execFileSync("dd", ["if=/dev/zero", `of=${path.join(m.mountPoint, "f")}`, "bs=1M", "count=100", "oflag=direct", "status=none"]);
    expect(fs.statSync(path.join(m.mountPoint, "f")).size).toBe(probe);
    expect(await lab.destroyByMountPoint(m.mountPoint)).toEqual([]);
  });

  it("on a backing file system that refuses O_DIRECT (ramfs) the image is attached buffered, and says why", async () => {
    // ramfs has no O_DIRECT: losetup --direct-io=on fails with EINVAL there (checked on this kernel).
    // It has no fallocate either, so this drives the attach step itself rather than a whole lab.
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), "lab-ramfs-"));
    dirs.push(dir);
    execFileSync("mount", ["-t", "ramfs", "-o", "size=64m", "ramfs", dir]);
    try {
      const image = path.join(dir, "image");
      execFileSync("truncate", ["-s", "64M", image]);
      const attached = await attachLoop(image);
      try {
        expect(attached).toMatchObject({ kind: "loop-buffered", dio: false, dioReason: expect.stringMatching(/^losetup --direct-io=on was refused/) });
        expect(readLoopDio(attached.loopDevice)).toBe("0");
      } finally {
        execFileSync("losetup", ["-d", attached.loopDevice]);
      }
    } finally {
      execFileSync("umount", [dir]);
    }
  });
});

describe.skipIf(!isRoot)("a whole device for the lab (--lab-device; a loop device stands in)", () => {
  const devices: string[] = [];
  const mountsToUndo: string[] = [];
  afterEach(() => {
    for (const m of mountsToUndo.splice(0)) spawnSync("umount", [m]);
    // A partition added with partx outlives the loop device's detach (no partscan): delete it first.
    for (const d of devices.splice(0)) {
      const px = spawnSync("partx", ["-d", d], { encoding: "utf8" });
      if (px.status !== 0) console.error("partx -d", d, px.stderr);
      spawnSync("losetup", ["-d", d]);
    }
  });
  /** A 400 MiB file on the disk, attached with direct I/O (and partition scanning, for the partition case). */
  function standIn(withPartition = false): string {
    const file = path.join(diskDir("dev-"), "disk");
    execFileSync("fallocate", ["-l", String(400 * 2 ** 20), file]);
    if (withPartition) {
      // One Linux partition from sector 2048 to the end, as a DOS partition table (no fdisk needed).
      const mbr = Buffer.alloc(512);
      mbr[446 + 4] = 0x83;
      mbr.writeUInt32LE(2048, 446 + 8);
      mbr.writeUInt32LE((400 * 2 ** 20) / 512 - 2048, 446 + 12);
      mbr.writeUInt16LE(0xaa55, 510);
      const fd = fs.openSync(file, "r+");
      fs.writeSync(fd, mbr, 0, 512, 0);
      fs.closeSync(fd);
    }
    const dev = execFileSync("losetup", ["--direct-io=on", "--find", "--show", file], { encoding: "utf8" }).trim();
    devices.push(dev);
    // This kernel is built without the DOS partition parser: partx reads the table and adds the partition (BLKPG).
    if (withPartition) {
      spawnSync("partx", ["-d", dev]); // a stale partition left on this loop number by an earlier user
      execFileSync("partx", ["-a", dev]);
    }
    return dev;
  }

  it("refuses a device the flag did not name, a file that is not a device, and one in use", async () => {
    const dev = standIn();
    expect(await checkLabDevice(dev, [])).toMatchObject({ ok: false, error: expect.stringMatching(/was not named with --lab-device/) });
    const file = path.join(diskDir("nodev-"), "plain");
    fs.writeFileSync(file, "x");
    expect(await checkLabDevice(file, [file])).toEqual({ ok: false, error: `${file} is not a block device` });
    // Mounted itself.
    execFileSync("mkfs.ext4", ["-F", "-q", dev]);
    const mnt = diskDir("mnt-");
    execFileSync("mount", [dev, mnt]);
    mountsToUndo.push(mnt);
    expect(await checkLabDevice(dev, [dev])).toMatchObject({ ok: false, error: expect.stringMatching(new RegExp(`is in use: ${dev} is mounted at ${mnt}`)) });
    execFileSync("umount", [mnt]);
    mountsToUndo.pop();
    // A swap signature means it belongs to something else.
    execFileSync("mkswap", ["-q", dev]);
    expect(await checkLabDevice(dev, [dev])).toMatchObject({ ok: false, error: expect.stringMatching(/carries a swap signature/) });
  });

  it("refuses a device whose partition is mounted", async () => {
    const dev = standIn(true);
    const part = `${dev}p1`;
    await expect.poll(() => fs.existsSync(part)).toBe(true);
    execFileSync("mkfs.ext4", ["-F", "-q", part]);
    const mnt = diskDir("mnt-");
    execFileSync("mount", [part, mnt]);
    mountsToUndo.push(mnt);
    expect(await checkLabDevice(dev, [dev])).toMatchObject({ ok: false, error: expect.stringMatching(new RegExp(`is in use: ${part} is mounted at ${mnt}`)) });
    const lab = newLab(diskDir("lab-"), diskDir("state-"));
    await expect(lab.create("ext4", 0, [], undefined, { path: dev, allowed: [dev] })).rejects.toThrow(/is in use/);
  });

  it("formats a free, named device for each arm in turn and leaves it attached, unmounted", async () => {
    const dev = standIn();
    const labDir = diskDir("lab-");
    const lab = newLab(labDir, diskDir("state-"));
    for (const fsType of ["ext4", "xfs"] as const) {
      const m = await lab.create(fsType, 0, [], undefined, { path: dev, allowed: [dev] });
      expect(m).toMatchObject({ kind: "device", dio: true, device: dev, loopDevice: dev, sizeBytes: 400 * 2 ** 20, driver: fsType });
      expect(mounted(m.mountPoint)).toBe(true);
      expect(execFileSync("findmnt", ["-n", "-o", "SOURCE", m.mountPoint], { encoding: "utf8" }).trim()).toBe(dev);
      expect(await lab.destroyByMountPoint(m.mountPoint)).toEqual([]);
      expect(mounted(m.mountPoint)).toBe(false);
    }
    // The device is still there (the test's own loop device), nothing left under the lab dir.
    expect(fs.existsSync(dev)).toBe(true);
    expect(fs.readdirSync(labDir)).toEqual([]);
  });
});
