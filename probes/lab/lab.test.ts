import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { checkMountOptions, MIN_IMAGE_BYTES } from "./file-systems";
import { availableLabFs, checkLabDir, Lab } from "./lab";
import { LabJournal } from "./lab-journal";

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
});
