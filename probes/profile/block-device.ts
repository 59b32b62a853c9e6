// Finds the disk under a file system through sysfs: /sys/dev/block/MAJ:MIN links to the device's
// node, whose parent is the disk when it is a partition, and whose slaves/ lead from
// device-mapper (LVM, dm-crypt) and md down to the disks they sit on.
import { readdir, readFile, realpath, stat } from "node:fs/promises";
import path from "node:path";
import { parseBracketedChoice } from "./parse-kernel-files";

const MAX_DEPTH = 8;

/** Linux's dev_t encoding (glibc's gnu_dev_major/minor), on the 64-bit value of stat(2). */
export function devMajorMinor(dev: bigint): { major: number; minor: number } {
  const major = Number(((dev >> 8n) & 0xfffn) | ((dev >> 32n) & ~0xfffn));
  const minor = Number((dev & 0xffn) | ((dev >> 12n) & ~0xffn));
  return { major, minor };
}

/**
 * The device name a sysfs node stands for, climbing from a partition to its disk:
 * ".../block/vda/vda1" → "vda", ".../block/dm-0" → "dm-0".
 */
export function diskOfSysfsNode(nodePath: string): string | null {
  const parts = nodePath.split("/").filter(Boolean);
  const i = parts.lastIndexOf("block");
  if (i < 0) return null;
  return parts[i + 1] ?? null;
}

async function readText(file: string): Promise<string | null> {
  try {
    return await readFile(file, "utf8");
  } catch {
    return null;
  }
}

/** Follows slaves/ (dm, md) down to a disk; the first slave when a volume spans several. */
async function descend(sysRoot: string, name: string, depth: number): Promise<string> {
  if (depth >= MAX_DEPTH) return name;
  let slaves: string[] = [];
  try {
    slaves = (await readdir(path.join(sysRoot, "class/block", name, "slaves"))).sort();
  } catch {
    return name;
  }
  const first = slaves[0];
  if (first === undefined) return name;
  const node = await realpathOrNull(path.join(sysRoot, "class/block", first));
  const disk = node ? diskOfSysfsNode(node) : null;
  return disk ? descend(sysRoot, disk, depth + 1) : name;
}

async function realpathOrNull(p: string): Promise<string | null> {
  try {
    return await realpath(p);
  } catch {
    return null;
  }
}

/** The disk a block device name ("vda1", "dm-0", "loop3") ultimately lives on. */
export async function diskOfDeviceName(sysRoot: string, name: string): Promise<string | null> {
  if (!/^[\w.:+-]+$/.test(name)) return null;
  const node = await realpathOrNull(path.join(sysRoot, "class/block", name));
  const disk = node ? diskOfSysfsNode(node) : null;
  return disk ? descend(sysRoot, disk, 0) : null;
}

/**
 * The disk under a path: through the file system's device number when it has a real one;
 * through the mount source (/dev/mapper/x → dm-0) for btrfs and others whose st_dev is
 * anonymous (major 0); null for tmpfs, NFS, overlay.
 */
export async function diskOfPath(sysRoot: string, dir: string, mountSource: string | null): Promise<string | null> {
  try {
    const { major, minor } = devMajorMinor((await stat(dir, { bigint: true })).dev);
    if (major !== 0) {
      const node = await realpathOrNull(path.join(sysRoot, "dev/block", `${major}:${minor}`));
      const disk = node ? diskOfSysfsNode(node) : null;
      if (disk) return descend(sysRoot, disk, 0);
    }
  } catch {
    // fall through to the mount source
  }
  if (mountSource === null || !mountSource.startsWith("/dev/")) return null;
  // btrfs subvolumes print as /dev/sda2[/@home]
  const devPath = mountSource.replace(/\[.*\]$/, "");
  const resolved = (await realpathOrNull(devPath)) ?? devPath;
  return diskOfDeviceName(sysRoot, path.basename(resolved));
}

export interface DiskFacts {
  rotational: boolean | null;
  model: string | null;
  scheduler: string | null;
  sizeBytes: number | null;
  hwQueueDepth: number | null;
}

/**
 * How many requests the device itself takes at once: a SCSI device's own queue_depth, else the
 * largest tag count of its blk-mq hardware queues (/sys/block/X/mq/N/nr_tags; Documentation/
 * block/blk-mq.rst: tags are what the driver hands to the hardware). nr_requests is the software
 * queue above it, so an nr_requests below this keeps the device from filling its own queue.
 */
async function readHwQueueDepth(base: string): Promise<number | null> {
  const scsi = (await readText(path.join(base, "device/queue_depth")))?.trim();
  if (scsi && /^\d+$/.test(scsi) && Number(scsi) > 0) return Number(scsi);
  let queues: string[] = [];
  try {
    queues = await readdir(path.join(base, "mq"));
  } catch {
    return null;
  }
  const tags = await Promise.all(queues.map(async (q) => (await readText(path.join(base, "mq", q, "nr_tags")))?.trim()));
  const depths = tags.filter((t): t is string => !!t && /^\d+$/.test(t)).map(Number).filter((n) => n > 0);
  return depths.length ? Math.max(...depths) : null;
}

export async function readDiskFacts(sysRoot: string, disk: string): Promise<DiskFacts> {
  const base = path.join(sysRoot, "block", disk);
  const [rota, model, sched, size, hwQueueDepth] = await Promise.all([
    readText(path.join(base, "queue/rotational")),
    readText(path.join(base, "device/model")),
    readText(path.join(base, "queue/scheduler")),
    readText(path.join(base, "size")),
    readHwQueueDepth(base),
  ]);
  const r = rota?.trim();
  const sectors = size?.trim();
  return {
    rotational: r === "1" ? true : r === "0" ? false : null,
    model: model?.trim() || null,
    scheduler: sched === null ? null : parseBracketedChoice(sched),
    // /sys/block/X/size counts 512-byte sectors whatever the device's logical block size.
    sizeBytes: sectors && /^\d+$/.test(sectors) ? Number(sectors) * 512 : null,
    hwQueueDepth,
  };
}
