import { existsSync, mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { devMajorMinor, diskOfDeviceName, diskOfPath, diskOfSysfsNode, readDiskFacts } from "./block-device";

// A miniature sysfs with the same link layout as the kernel's: vda with partitions vda1 and
// vda2, an LVM volume dm-0 on vda2, dm-1 (dm-crypt) on dm-0, and a loop device.
const sys = mkdtempSync(path.join(os.tmpdir(), "probebook-sysfs-"));
afterAll(() => rmSync(sys, { recursive: true, force: true }));

function dir(rel: string) {
  mkdirSync(path.join(sys, rel), { recursive: true });
}
function file(rel: string, text: string) {
  dir(path.dirname(rel));
  writeFileSync(path.join(sys, rel), text);
}
function link(rel: string, to: string) {
  dir(path.dirname(rel));
  symlinkSync(to, path.join(sys, rel));
}

const VDA = "devices/pci0000:00/0000:00:02.0/virtio1/block/vda";
dir(`${VDA}/vda1`);
dir(`${VDA}/vda2`);
dir("devices/virtual/block/dm-0/slaves");
dir("devices/virtual/block/dm-1/slaves");
dir("devices/virtual/block/loop3");
for (const [name, target] of [
  ["vda", `../../${VDA}`],
  ["vda1", `../../${VDA}/vda1`],
  ["vda2", `../../${VDA}/vda2`],
  ["dm-0", "../../devices/virtual/block/dm-0"],
  ["dm-1", "../../devices/virtual/block/dm-1"],
  ["loop3", "../../devices/virtual/block/loop3"],
] as const) {
  link(`class/block/${name}`, target);
  link(`block/${name}`, target.slice(3)); // /sys/block/X → ../devices/…
}
link("devices/virtual/block/dm-0/slaves/vda2", `../../../../${VDA}/vda2`);
link("devices/virtual/block/dm-1/slaves/dm-0", "../../dm-0");
link("dev/block/254:0", `../../${VDA}`);
link("dev/block/254:1", `../../${VDA}/vda1`);
link("dev/block/253:1", "../../devices/virtual/block/dm-1");
// Values as captured from /sys/block/vda on the fixture machine.
file(`${VDA}/queue/rotational`, "1\n");
file(`${VDA}/queue/scheduler`, "none [mq-deadline] kyber bfq \n");
file(`${VDA}/size`, "536870912\n");
file(`${VDA}/device/model`, "QEMU HARDDISK   \n");
// One blk-mq hardware queue of 128 tags, as /sys/block/vda/mq/0/nr_tags reads on this machine.
file(`${VDA}/mq/0/nr_tags`, "128\n");
// A SCSI disk: its own queue_depth (32) wins over the host adapter's tag count.
dir("devices/virtual/block/sdb");
link("block/sdb", "../devices/virtual/block/sdb");
file("devices/virtual/block/sdb/device/queue_depth", "32\n");
file("devices/virtual/block/sdb/mq/0/nr_tags", "1024\n");
file("devices/virtual/block/sdb/mq/1/nr_tags", "1024\n");

describe("devMajorMinor", () => {
  it("decodes glibc's dev_t layout", () => {
    expect(devMajorMinor(BigInt(254 << 8))).toEqual({ major: 254, minor: 0 });
    // makedev(259, 300): nvme partitions have minors above 255
    const dev = (259n << 8n) | (300n & 0xffn) | ((300n & ~0xffn) << 12n);
    expect(devMajorMinor(dev)).toEqual({ major: 259, minor: 300 });
    expect(devMajorMinor(27n)).toEqual({ major: 0, minor: 27 });
  });
});

describe("sysfs walk", () => {
  it("climbs from partitions to disks", () => {
    expect(diskOfSysfsNode(`/sys/${VDA}/vda1`)).toBe("vda");
    expect(diskOfSysfsNode(`/sys/${VDA}`)).toBe("vda");
    expect(diskOfSysfsNode("/sys/devices/virtual/block/loop3")).toBe("loop3");
    expect(diskOfSysfsNode("/sys/devices/virtual/net/lo")).toBeNull();
  });

  it("follows partitions, LVM and dm-crypt down to the disk", async () => {
    expect(await diskOfDeviceName(sys, "vda1")).toBe("vda");
    expect(await diskOfDeviceName(sys, "dm-0")).toBe("vda");
    expect(await diskOfDeviceName(sys, "dm-1")).toBe("vda");
    expect(await diskOfDeviceName(sys, "loop3")).toBe("loop3");
    expect(await diskOfDeviceName(sys, "sdz")).toBeNull();
    expect(await diskOfDeviceName(sys, "../../etc")).toBeNull();
  });

  it("falls back to the mount source for anonymous device numbers", async () => {
    const tmpfsDir = mkdtempSync(path.join("/dev/shm", "probebook-"));
    try {
      expect(await diskOfPath(sys, tmpfsDir, "/dev/mapper/../../../sys/x")).toBeNull();
      expect(await diskOfPath(sys, tmpfsDir, "tmpfs")).toBeNull();
      // btrfs prints the subvolume after the device; this /dev node does not exist here, its name does in the fake sysfs
      expect(await diskOfPath(sys, tmpfsDir, "/dev/dm-1[/@home]")).toBe("vda");
    } finally {
      rmSync(tmpfsDir, { recursive: true });
    }
  });

  it("reads the disk's facts", async () => {
    expect(await readDiskFacts(sys, "vda")).toEqual({
      rotational: true,
      model: "QEMU HARDDISK",
      scheduler: "mq-deadline",
      sizeBytes: 274877906944,
      hwQueueDepth: 128,
    });
    expect(await readDiskFacts(sys, "loop3")).toEqual({ rotational: null, model: null, scheduler: null, sizeBytes: null, hwQueueDepth: null });
    expect((await readDiskFacts(sys, "sdb")).hwQueueDepth).toBe(32);
  });

  it("finds a real disk under this machine's root file system", async () => {
    const disk = await diskOfPath("/sys", os.tmpdir(), null);
    if (disk !== null) expect(existsSync(path.join("/sys/block", disk))).toBe(true);
  });
});
