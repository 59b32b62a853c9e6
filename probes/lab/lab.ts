// The file-system lab: for each arm an image file of the same size on the same backing file
// system, formatted, loop-mounted (with direct I/O when the backing file system allows it, see
// loop-dio.ts) under the lab directory, and taken down afterwards; or, when the owner named one
// with --lab-device, a whole block device formatted anew for each arm (lab-device.ts). Otherwise
// only files the agent itself created inside its own private directory are ever formatted —
// never a path from the server — and every step is journaled before it is taken, so a cancel, a
// crash or a reboot ends with nothing left mounted or on disk.
import { execFile } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";
import { MKFS, MIN_IMAGE_BYTES, checkMountOptions, type LabFs } from "./file-systems";
import { checkLabDevice } from "./lab-device";
import { LabJournal, type LabEntry } from "./lab-journal";
import { attachLoop, type LabKind } from "./loop-dio";

const run = promisify(execFile);

export class LabError extends Error {}

/** File systems that must not hold lab images: remote or virtual, where the numbers mean nothing. */
const UNSUITABLE = new Set(["nfs", "nfs4", "cifs", "smb3", "9p", "fuse", "fuse.sshfs", "ceph", "glusterfs", "overlay", "proc", "sysfs", "devtmpfs"]);

export interface LabFsInfo {
  fsType: LabFs;
  /** The image file; for a whole device, the device. */
  image: string;
  mountPoint: string;
  /** The block device under the mount: a loop device, or the --lab-device itself. */
  loopDevice: string;
  sizeBytes: number;
  kind: LabKind;
  /** Writes reach the disk without the backing file system's page cache (always for a device). */
  dio: boolean;
  dioReason: string | null;
  /** The --lab-device used, or null for a loop image. */
  device: string | null;
  mkfsCommand: string;
  /** As the kernel reports them in /proc/self/mountinfo. */
  mountOptions: string[];
  /** The kernel driver actually serving the mount: ext2 and ext3 are served by ext4 on current kernels. */
  driver: string;
}

interface MountInfo {
  fsType: string;
  options: string[];
  source: string;
}

function mountInfoOf(mountPoint: string): MountInfo | null {
  for (const line of fs.readFileSync("/proc/self/mountinfo", "utf8").split("\n")) {
    const [pre, post] = line.split(" - ");
    const f = pre?.split(" ");
    if (!f || !post || f[4] !== mountPoint) continue;
    const [fsType, source, superOpts] = post.split(" ");
    return { fsType: fsType ?? "", source: source ?? "", options: [...new Set([...(f[5] ?? "").split(","), ...(superOpts ?? "").split(",")])].filter(Boolean) };
  }
  return null;
}

/** The ext4 driver lists every device it serves under /sys/fs/ext4, whatever type it mounted. */
function driverOf(fsType: string, loopDevice: string): string {
  if (fsType.startsWith("ext") && fs.existsSync(path.join("/sys/fs/ext4", path.basename(loopDevice)))) return "ext4";
  return fsType;
}

/** The lab directory must be a real local directory and the agent must be root (mount, losetup). */
export async function checkLabDir(dir: string): Promise<{ ok: true; dir: string } | { ok: false; error: string }> {
  if (process.getuid?.() !== 0) return { ok: false, error: "--lab needs root: making loop-mounted file systems requires mount and losetup" };
  let real: string;
  try {
    real = fs.realpathSync(dir);
    if (!fs.statSync(real).isDirectory()) return { ok: false, error: `--lab ${dir} is not a directory` };
  } catch {
    return { ok: false, error: `--lab ${dir}: no such directory` };
  }
  const { stdout } = await run("findmnt", ["-n", "-o", "FSTYPE", "--target", real]).catch(() => ({ stdout: "" }));
  const backing = stdout.trim();
  if (UNSUITABLE.has(backing) || backing.startsWith("fuse")) return { ok: false, error: `--lab ${dir} is on ${backing}; choose a directory on a local disk` };
  const st = fs.statfsSync(real);
  if (st.bavail * st.bsize < 2 * MIN_IMAGE_BYTES) return { ok: false, error: `--lab ${dir} has less than ${(2 * MIN_IMAGE_BYTES) / 2 ** 20} MiB free` };
  return { ok: true, dir: real };
}

/** Which lab file systems this host can make. */
export async function availableLabFs(): Promise<LabFs[]> {
  const out: LabFs[] = [];
  for (const [fsType, { binary }] of Object.entries(MKFS) as [LabFs, { binary: string }][]) {
    const found = await run("sh", ["-c", 'command -v "$1"', "sh", binary]).then(
      () => true,
      () => false,
    );
    if (found) out.push(fsType);
  }
  return out;
}

export class Lab {
  private readonly journal: LabJournal;

  constructor(
    private readonly labDir: string,
    stateDir: string,
  ) {
    this.journal = new LabJournal(stateDir);
  }

  /**
   * Makes one arm's file system: on a fresh image of `sizeBytes`, or on `device.path` (which must
   * be one of `device.allowed`, the --lab-device list; it is checked again here, right before mkfs).
   */
  async create(
    fsType: LabFs,
    sizeBytes: number,
    mountOptions: readonly string[] = [],
    runId?: string,
    device?: { path: string; allowed: readonly string[] },
  ): Promise<LabFsInfo> {
    const opts = checkMountOptions(fsType, mountOptions);
    if (!opts.ok) throw new LabError(opts.error);
    let devicePath: string | null = null;
    if (device) {
      const checked = await checkLabDevice(device.path, device.allowed);
      if (!checked.ok) throw new LabError(checked.error);
      devicePath = checked.device;
      sizeBytes = checked.sizeBytes;
    }
    if (!Number.isSafeInteger(sizeBytes) || sizeBytes < MIN_IMAGE_BYTES) throw new LabError(`image size must be at least ${MIN_IMAGE_BYTES / 2 ** 20} MiB`);
    const free = fs.statfsSync(this.labDir);
    if (!devicePath && free.bavail * free.bsize < sizeBytes + 64 * 2 ** 20) throw new LabError(`the lab directory has no room for a ${Math.round(sizeBytes / 2 ** 20)} MiB image`);
    // A private directory of our own (mkdtemp is O_EXCL, mode 0700): nothing another user
    // planted can be in the path of the image or the mount point.
    const home = fs.mkdtempSync(path.join(this.labDir, `probebook-lab-${fsType}-`));
    const entry: LabEntry = {
      id: crypto.randomUUID(),
      home,
      image: devicePath ?? path.join(home, "image"),
      mountPoint: path.join(home, "mnt"),
      loopDevice: devicePath,
      ...(devicePath ? { device: devicePath } : {}),
      at: new Date().toISOString(),
      ...(runId ? { runId } : {}),
    };
    try {
      this.journal.add(entry);
    } catch (err) {
      // Not journaled (a full state dir: ENOSPC), so nothing is made: a crash could not be undone.
      fs.rmSync(home, { recursive: true, force: true });
      throw new LabError(`cannot write the lab journal in the state directory, so no lab file system is made: ${(err as Error).message}`);
    }
    try {
      const mkfs = MKFS[fsType];
      let attach: { kind: LabKind; dio: boolean; dioReason: string | null };
      if (devicePath) {
        await run(mkfs.binary, [...mkfs.args, devicePath]);
        fs.mkdirSync(entry.mountPoint, { mode: 0o700 });
        attach = { kind: "device", dio: true, dioReason: null };
      } else {
        fs.closeSync(fs.openSync(entry.image, fs.constants.O_CREAT | fs.constants.O_EXCL | fs.constants.O_WRONLY | fs.constants.O_NOFOLLOW, 0o600));
        // Allocated, not sparse: every arm's blocks exist on the backing disk before the probe.
        await run("fallocate", ["-l", String(sizeBytes), entry.image]);
        await run(mkfs.binary, [...mkfs.args, entry.image]);
        // mkfs wrote through the backing file system's page cache: on disk now, so its writeback
        // does not overlap the probe (the loop device itself bypasses that cache from here on).
        const fd = fs.openSync(entry.image, fs.constants.O_RDONLY | fs.constants.O_NOFOLLOW);
        try {
          fs.fsyncSync(fd);
        } finally {
          fs.closeSync(fd);
        }
        fs.mkdirSync(entry.mountPoint, { mode: 0o700 });
        const attached = await attachLoop(entry.image);
        entry.loopDevice = attached.loopDevice;
        attach = attached;
        this.journal.update(entry);
      }
      const loopDevice = entry.loopDevice ?? "";
      const mountArgs = mountOptions.length > 0 ? ["-o", mountOptions.join(",")] : [];
      await run("mount", ["-t", fsType, ...mountArgs, loopDevice, entry.mountPoint]);
      const info = mountInfoOf(entry.mountPoint);
      if (!info) throw new LabError(`${entry.mountPoint} is not mounted after mount`);
      const made = {
        fsType,
        mkfsCommand: [mkfs.binary, ...mkfs.args, devicePath ? "<device>" : "<image>"].join(" "),
        mountOptions: info.options,
        driver: driverOf(info.fsType, loopDevice),
        sizeBytes,
        ...attach,
        device: devicePath,
      };
      this.journal.update({ ...entry, mounted: made });
      return { ...made, image: entry.image, mountPoint: entry.mountPoint, loopDevice };
    } catch (err) {
      await this.destroy(entry);
      if (err instanceof LabError) throw err;
      const e = err as Error & { stderr?: string };
      throw new LabError(`could not make ${fsType}: ${(e.stderr || e.message).trim()}`);
    }
  }

  /** Unmount, detach, delete; returns problems instead of throwing, and keeps the journal entry if any remain. */
  async destroy(entry: LabEntry): Promise<string[]> {
    const problems: string[] = [];
    if (mountInfoOf(entry.mountPoint)) {
      await run("umount", [entry.mountPoint]).catch(async (e: Error) => {
        // Busy (a probe's process still exiting): detach now, the kernel finishes when it can.
        await run("umount", ["-l", entry.mountPoint]).catch(() => problems.push(`umount ${entry.mountPoint}: ${e.message}`));
      });
    }
    // A whole device has no loop device of ours to detach (and its file system stays on it: the next arm's mkfs replaces it).
    const attached = entry.device ? [] : await run("losetup", ["-j", entry.image]).then(
      (r) => r.stdout.split("\n").map((l) => l.split(":")[0]?.trim()).filter((d): d is string => !!d),
      () => [] as string[],
    );
    for (const dev of attached) await run("losetup", ["-d", dev]).catch((e: Error) => problems.push(`losetup -d ${dev}: ${e.message}`));
    if (problems.length === 0) {
      fs.rmSync(entry.home, { recursive: true, force: true });
      try {
        this.journal.remove(entry.id);
      } catch (err) {
        // Taken down, but the entry stays (a full state dir): the next start finds nothing left and drops it.
        problems.push(`the lab is removed but its journal entry could not be dropped (${(err as Error).message})`);
      }
    }
    return problems;
  }

  async destroyByMountPoint(mountPoint: string): Promise<string[]> {
    const entry = this.journal.entries().find((e) => e.mountPoint === mountPoint);
    return entry ? this.destroy(entry) : [];
  }

  /** At start: take down whatever the journal says a previous run left behind. */
  async cleanupLeftovers(): Promise<{ removed: number; problems: string[] }> {
    const entries = this.journal.entries();
    const problems: string[] = [];
    for (const e of entries) problems.push(...(await this.destroy(e)));
    return { removed: entries.length - this.journal.entries().length, problems };
  }
}
