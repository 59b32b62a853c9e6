import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { toolStdout } from "./exec-tool";
import { parseFindmntJson } from "./parse-findmnt";
import { collectTarget, mediumFor } from "./target";

const work = mkdtempSync(path.join(os.tmpdir(), "probebook-target-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

async function realMounts() {
  return parseFindmntJson((await toolStdout("findmnt", ["-J", "-o", "TARGET,SOURCE,FSTYPE,OPTIONS"])) ?? "");
}

describe("mediumFor", () => {
  it.each([
    ["tmpfs", null, null, "memory"],
    ["ramfs", null, true, "memory"],
    ["ext4", "zram0", false, "memory"],
    ["ext4", "vda", true, "disk"],
    ["xfs", "nvme0n1", false, "ssd"],
    ["nfs4", null, null, "unknown"],
    [null, null, null, "unknown"],
  ] as const)("%s on %s (rotational %s) is %s", (fs, dev, rota, medium) => {
    expect(mediumFor(fs, dev, rota)).toBe(medium);
  });
});

describe("collectTarget on this machine", () => {
  it("describes a directory on the root file system", async () => {
    const t = await collectTarget(work, { mounts: await realMounts(), sysRoot: "/sys" });
    expect(t.path).toBe(work);
    expect(t.fsType).not.toBeNull();
    expect(t.mountPoint).not.toBeNull();
    expect(t.mountOptions.length).toBeGreaterThan(0);
    expect(t.totalBytes).toBeGreaterThan(0);
    expect(t.freeBytes).toBeGreaterThanOrEqual(0);
    expect(t.freeBytes).toBeLessThanOrEqual(t.totalBytes ?? 0);
    expect(JSON.parse(JSON.stringify(t))).toEqual(t);
  });

  it("calls /dev/shm memory", async () => {
    const t = await collectTarget("/dev/shm", { mounts: await realMounts(), sysRoot: "/sys" });
    expect(t).toMatchObject({ fsType: "tmpfs", source: "tmpfs", medium: "memory", device: null, rotational: null });
  });

  it("survives a missing directory and no mount table", async () => {
    const t = await collectTarget(path.join(work, "gone"), { mounts: [], sysRoot: "/nonexistent" });
    expect(t).toMatchObject({ path: path.join(work, "gone"), fsType: null, device: null, medium: "unknown", totalBytes: null });
  });

  it("follows an ext4 loop mount to its loop device", async ({ skip }) => {
    // Skipped, and said so, for other users; as root (npm test's pre-check has made sure
    // mkfs.ext4 and mount are there) a failing mount fails the test.
    skip(process.getuid?.() !== 0, "needs root: loop mount (mount -o loop)");
    const img = path.join(work, "ext4.img");
    const mnt = path.join(work, "mnt");
    mkdirSync(mnt);
    execFileSync("truncate", ["-s", "32M", img]);
    execFileSync("mkfs.ext4", ["-q", "-F", img], { stdio: "ignore" });
    execFileSync("mount", ["-o", "loop", img, mnt], { stdio: "ignore" });
    try {
      const t = await collectTarget(mnt, { mounts: await realMounts(), sysRoot: "/sys" });
      expect(t.fsType).toBe("ext4");
      expect(t.mountPoint).toBe(mnt);
      expect(t.source).toMatch(/^\/dev\/loop\d+$/);
      expect(t.device).toBe(path.basename(t.source ?? ""));
      expect(t.rotational).not.toBeNull();
      expect(t.totalBytes).toBeGreaterThan(20 * 1024 * 1024);
    } finally {
      execFileSync("umount", [mnt]);
    }
  });
});
