// Which block device holds a directory, by the kernel's own answer: the directory's st_dev,
// looked up under /sys/dev/block. Partitions and device-mapper volumes keep their own name,
// since /proc/diskstats counts them separately and that is the traffic the probe makes.
import fs from "node:fs/promises";
import path from "node:path";

/** Linux's dev_t encoding (glibc gnu_dev_major/minor). */
export function splitDev(dev: bigint): { major: number; minor: number } {
  const major = Number(((dev >> 8n) & 0xfffn) | ((dev >> 32n) & ~0xfffn));
  const minor = Number((dev & 0xffn) | ((dev >> 12n) & ~0xffn));
  return { major, minor };
}

/**
 * The device name for `dir`, or null when its file system has no block device (tmpfs, and
 * btrfs, whose st_dev is an anonymous number) or /sys is not readable.
 */
export async function deviceOfDirectory(dir: string, sysRoot = "/sys"): Promise<string | null> {
  try {
    const st = await fs.stat(dir, { bigint: true });
    const { major, minor } = splitDev(st.dev);
    if (major === 0) return null;
    const link = await fs.readlink(path.join(sysRoot, "dev/block", `${major}:${minor}`));
    return path.basename(link);
  } catch {
    return null;
  }
}
