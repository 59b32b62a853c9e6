import { realpath, statfs } from "node:fs/promises";
import path from "node:path";
import { diskOfPath, readDiskFacts } from "./block-device";
import { findMountFor, type MountEntry } from "./parse-findmnt";
import type { Medium, TargetProfile } from "./types";

const MEMORY_FS = new Set(["tmpfs", "ramfs"]);

/**
 * tmpfs/ramfs and RAM-backed block devices (zram, brd's ram0) are memory; otherwise the
 * rotational flag decides. VMs often report virtio disks as rotational: the UI lets the user
 * override the medium per device, this is only the default.
 */
export function mediumFor(fsType: string | null, device: string | null, rotational: boolean | null): Medium {
  if (fsType !== null && MEMORY_FS.has(fsType)) return "memory";
  if (device !== null && /^(zram|ram)\d+$/.test(device)) return "memory";
  if (rotational === true) return "disk";
  if (rotational === false) return "ssd";
  return "unknown";
}

export interface TargetContext {
  mounts: readonly MountEntry[];
  sysRoot: string;
}

/** Everything about one directory's storage; fields that cannot be found are null. */
export async function collectTarget(dir: string, ctx: TargetContext): Promise<TargetProfile> {
  let real = path.resolve(dir);
  try {
    real = await realpath(dir);
  } catch {
    // keep the resolved path: the profile of a vanished directory is still worth sending
  }
  const mount = findMountFor(real, ctx.mounts);
  let totalBytes: number | null = null;
  let freeBytes: number | null = null;
  try {
    const st = await statfs(real);
    totalBytes = st.blocks * st.bsize;
    // bavail: what an unprivileged writer may use, the same figure the job guard checks.
    freeBytes = st.bavail * st.bsize;
  } catch {
    // leave null
  }
  const fsType = mount?.fsType ?? null;
  const device = MEMORY_FS.has(fsType ?? "") ? null : await diskOfPath(ctx.sysRoot, real, mount?.source ?? null);
  const facts = device ? await readDiskFacts(ctx.sysRoot, device) : null;
  const rotational = facts?.rotational ?? null;
  return {
    path: real,
    fsType,
    source: mount?.source ?? null,
    mountPoint: mount?.target ?? null,
    mountOptions: mount?.options ?? [],
    device,
    rotational,
    model: facts?.model ?? null,
    medium: mediumFor(fsType, device, rotational),
    totalBytes,
    freeBytes,
  };
}
