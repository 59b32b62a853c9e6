// A whole block device for the lab (`--lab-device DEV`): each arm makes its file system on the
// device itself, one arm after another, so every arm has the same disk, the same blocks and no
// loop device or backing file system in between. mkfs destroys what is on it, so the agent takes
// a device only when its owner named it with the flag, and never one in use: mounted (itself or a
// partition), held by another driver (device mapper, md, bcache), swap, or carrying a volume
// manager's or RAID member's signature.
import { execFile } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { promisify } from "node:util";

const run = promisify(execFile);

/** Signatures that say the device belongs to something else even when nothing is mounted. */
const IN_USE_FSTYPES = new Set(["swap", "LVM2_member", "linux_raid_member", "crypto_LUKS", "zfs_member", "bcache", "ceph"]);

export type DeviceCheck = { ok: true; device: string; sizeBytes: number } | { ok: false; error: string };

/** The device's name in /sys/class/block and its partitions' names. */
function sysNames(name: string): string[] {
  const dir = path.join("/sys/class/block", name);
  const parts = fs.readdirSync(dir).filter((p) => fs.existsSync(path.join(dir, p, "partition")));
  return [name, ...parts];
}

function majMin(name: string): string | null {
  try {
    return fs.readFileSync(path.join("/sys/class/block", name, "dev"), "utf8").trim();
  } catch {
    return null;
  }
}

/** Is `device` one the owner named with --lab-device (compared by real path, so a symlink cannot smuggle another in). */
export function namedDevice(device: string, allowed: readonly string[]): string | null {
  const real = (p: string) => {
    try {
      return fs.realpathSync(p);
    } catch {
      return null;
    }
  };
  const want = real(device);
  return want && allowed.some((a) => real(a) === want) ? want : null;
}

/**
 * Checks that `device` may be formatted now: named by --lab-device, a block device, nothing of it
 * mounted or held, no swap or foreign signature. Reads only.
 */
export async function checkLabDevice(device: string, allowed: readonly string[]): Promise<DeviceCheck> {
  const real = namedDevice(device, allowed);
  if (!real) return { ok: false, error: `${device} was not named with --lab-device (the agent allows ${allowed.join(", ") || "no device"})` };
  let st: fs.Stats;
  try {
    st = fs.statSync(real);
  } catch (err) {
    return { ok: false, error: `${device}: ${(err as NodeJS.ErrnoException).code ?? String(err)}` };
  }
  if (!st.isBlockDevice()) return { ok: false, error: `${device} is not a block device` };
  const name = path.basename(real);
  if (!fs.existsSync(path.join("/sys/class/block", name))) return { ok: false, error: `${device} is not listed in /sys/class/block` };
  const names = sysNames(name);
  const ids = new Map(names.map((n) => [majMin(n), n]));
  for (const line of fs.readFileSync("/proc/self/mountinfo", "utf8").split("\n")) {
    const f = line.split(" ");
    const source = line.split(" - ")[1]?.split(" ")[1];
    const hit = ids.get(f[2] ?? "") ?? names.find((n) => source === `/dev/${n}`);
    if (hit) return { ok: false, error: `${device} is in use: /dev/${hit} is mounted at ${f[4]}` };
  }
  for (const n of names) {
    const holders = fs.readdirSync(path.join("/sys/class/block", n, "holders")).filter(Boolean);
    if (holders.length > 0) return { ok: false, error: `${device} is in use: /dev/${n} is held by ${holders.join(", ")}` };
  }
  const swaps = fs.readFileSync("/proc/swaps", "utf8").split("\n").slice(1).map((l) => l.split(/\s+/)[0]);
  const swapping = names.find((n) => swaps.includes(`/dev/${n}`));
  if (swapping) return { ok: false, error: `${device} is in use: /dev/${swapping} is active swap` };
  // lsblk for what is mounted (also by a name mountinfo spells differently, e.g. a mapper path).
  const { stdout } = await run("lsblk", ["-J", "-o", "NAME,MOUNTPOINT", real]);
  const rows: { name: string; mountpoint: string | null }[] = [];
  const walk = (list: unknown) => {
    for (const d of (list as { name: string; mountpoint: string | null; children?: unknown[] }[]) ?? []) {
      rows.push(d);
      walk(d.children);
    }
  };
  walk((JSON.parse(stdout) as { blockdevices?: unknown[] }).blockdevices);
  for (const r of rows) if (r.mountpoint) return { ok: false, error: `${device} is in use: ${r.name} is mounted at ${r.mountpoint}` };
  // Signatures from blkid's low-level probe of the device itself (lsblk's FSTYPE comes from the
  // udev database, which a host without udev, or a device udev has not seen yet, does not have).
  for (const n of names) {
    const type = await run("blkid", ["-p", "-o", "value", "-s", "TYPE", `/dev/${n}`]).then(
      (r) => r.stdout.trim(),
      () => "",
    );
    if (IN_USE_FSTYPES.has(type)) return { ok: false, error: `${device} is in use: /dev/${n} carries a ${type} signature; wipe it yourself (wipefs) if it is really free` };
  }
  const sectors = Number(fs.readFileSync(path.join("/sys/class/block", name, "size"), "utf8").trim());
  return { ok: true, device: real, sizeBytes: sectors * 512 };
}

/** Size and path of each named device that exists, for the capabilities (in use or not: the check is made per arm). */
export function describeLabDevices(allowed: readonly string[]): { path: string; sizeBytes: number }[] {
  const out: { path: string; sizeBytes: number }[] = [];
  for (const d of allowed) {
    try {
      const name = path.basename(fs.realpathSync(d));
      out.push({ path: d, sizeBytes: Number(fs.readFileSync(path.join("/sys/class/block", name, "size"), "utf8").trim()) * 512 });
    } catch {
      // A device that is gone is simply not offered.
    }
  }
  return out;
}
