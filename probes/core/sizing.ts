// Sizing a preset's file for the host and target it runs on. Three rules, each a ceiling:
//  1. The file never takes more than the target's free space minus a margin (the run needs the
//     whole file, and a full file system fails other programs on the host, not only the run).
//  2. On a memory-backed target (tmpfs, ramfs) the file IS memory: it never exceeds a quarter of
//     the host's RAM, so a host without swap keeps room for everything else it runs. "Larger
//     than RAM" is a disk notion: it makes the page cache miss, and has no meaning in memory.
//  3. A time-based random test lays out no more than it can touch in its runtime: fio writes the
//     whole file before the clock starts, so a 48 GiB layout for a 60 s QD1 test spends minutes
//     writing blocks the test never reads.

/** What the sizing needs to know about a target directory (a host profile's target). */
export interface SizingTarget {
  freeBytes: number | null;
  fsType: string | null;
  medium: string | null;
}

/** The parameters that decide how much a run can touch (fio's names; missing ones take fio's defaults). */
export interface SizingParams {
  sizeMiB?: unknown;
  rw?: unknown;
  blockSizeKiB?: unknown;
  iodepth?: unknown;
  numjobs?: unknown;
  runtimeSec?: unknown;
  direct?: unknown;
}

const MiB = 2 ** 20;
const GiB_MiB = 1024;

/**
 * What the agent keeps free beyond what a run writes (probes/admission.ts decides with it). Here,
 * in a module with no imports, so that browser code sizing a run (lib/experiments/trials.ts)
 * takes the same figure without pulling in the catalog.
 */
export const FREE_SPACE_MARGIN_BYTES = 64 * MiB;

/** Kept free on the target: 10 % of its free space, at least 1 GiB (the file system's own needs, logs, other programs). */
export function freeMarginBytes(freeBytes: number): number {
  return Math.max(2 ** 30, 0.1 * freeBytes);
}

const MEMORY_FS = new Set(["tmpfs", "ramfs", "devtmpfs", "hugetlbfs"]);

export function isMemoryBacked(t: Pick<SizingTarget, "fsType" | "medium">): boolean {
  return t.medium === "memory" || (t.fsType !== null && MEMORY_FS.has(t.fsType));
}

/**
 * A generous ceiling of completed I/Os per second per outstanding I/O: 50 000, i.e. 20 µs per
 * request. Flash NVMe drives take 60–100 µs for a 4 KiB random read at queue depth 1 (10–16 k
 * IOPS), SATA SSDs more, disks milliseconds; only Optane-class media come near 10 µs. Real runs
 * therefore touch far less than the bound allows, so the layout is never smaller than what the
 * runtime could reach, only smaller than the many times more it used to be.
 */
export const IOPS_CEILING_PER_OUTSTANDING_IO = 50_000;

const num = (v: unknown, dflt: number) => (typeof v === "number" && Number.isFinite(v) && v > 0 ? v : dflt);

/**
 * MiB a time-based random run can touch at most: runtime × ceiling IOPS × outstanding I/Os
 * (iodepth × numjobs) × block size. Null when the run is not bounded by time (one pass over the
 * file touches all of it) or is sequential (a sequential time-based run wraps around the file;
 * its size is the preset's, not a reach).
 */
export function reachMiB(p: SizingParams): number | null {
  const random = typeof p.rw === "string" ? p.rw.startsWith("rand") : p.rw === undefined;
  if (!random || typeof p.runtimeSec !== "number" || !(p.runtimeSec > 0)) return null;
  const outstanding = num(p.iodepth, 1) * num(p.numjobs, 1);
  return (p.runtimeSec * IOPS_CEILING_PER_OUTSTANDING_IO * outstanding * num(p.blockSizeKiB, 4)) / 1024;
}

/**
 * Ceiling of a file on this target, in MiB, whatever the workload: free space minus the margin,
 * and a quarter of RAM on memory-backed targets. Null when nothing bounds it (no facts known).
 */
export function targetCeilingMiB(memTotalBytes: number | null, t: SizingTarget): number | null {
  const caps: number[] = [];
  if (t.freeBytes !== null && t.freeBytes >= 0) caps.push(Math.max(0, t.freeBytes - freeMarginBytes(t.freeBytes)) / MiB);
  if (isMemoryBacked(t) && memTotalBytes !== null && memTotalBytes > 0) caps.push(memTotalBytes / 4 / MiB);
  return caps.length ? Math.min(...caps) : null;
}

/** Whole GiB when at least one, else whole 64 MiB: numbers that read well in the form. */
function roundDown(mib: number): number {
  return mib >= GiB_MiB ? Math.floor(mib / GiB_MiB) * GiB_MiB : Math.floor(mib / 64) * 64;
}

/**
 * The file size of a preset sized beyond RAM, on this target, for these parameters; null when it
 * cannot be sized (RAM unknown, or less than 64 MiB fits) and the preset's own size stands.
 *
 * Which size is wanted depends on what the run reads through:
 *  - buffered I/O on a disk goes through the page cache, so the file is twice the RAM: the cache
 *    cannot hold it and most reads reach the device;
 *  - O_DIRECT bypasses the page cache (open(2), O_DIRECT; fio also invalidates the file's cached
 *    pages after laying it out), so RAM is not the yardstick at all. What a wide file still buys
 *    is offsets spread over much of the device, past its own caches (drive DRAM, a hypervisor's
 *    cache behind a virtual disk), which the host cannot see; as wide as the run can reach is as
 *    wide as matters, so a direct run is sized by its reach alone (one pass without a time bound
 *    keeps the preset's size).
 * Then the three ceilings of the file's header apply, and a floor of 1 GiB where it fits.
 */
export function presetSizeMiB(memTotalBytes: number | null, t: SizingTarget, p: SizingParams): number | null {
  if (memTotalBytes === null || !(memTotalBytes > 0)) return null;
  const reach = reachMiB(p);
  const direct = p.direct !== false;
  // A direct run without a time bound reads its whole file once: the preset's size is right.
  let wanted = direct ? (reach ?? num(p.sizeMiB, GiB_MiB)) : (2 * memTotalBytes) / MiB;
  if (reach !== null) wanted = Math.min(wanted, reach);
  wanted = Math.max(wanted, GiB_MiB);
  const ceiling = targetCeilingMiB(memTotalBytes, t);
  const mib = roundDown(Math.min(wanted, ceiling ?? Infinity, 1024 * 1024));
  return mib >= 64 ? mib : null;
}

/**
 * Any preset's size shrunk to what the target can hold (rule 1 and 2 of the header): a fixed
 * 1 GiB preset on a target with 1.5 GiB free proposes what fits. Null when it needs no change,
 * or when not even 64 MiB fits (the size stays; the server's free-space check explains the refusal).
 */
export function shrinkToTargetMiB(sizeMiB: number, memTotalBytes: number | null, t: SizingTarget): number | null {
  const ceiling = targetCeilingMiB(memTotalBytes, t);
  if (ceiling === null || sizeMiB <= ceiling) return null;
  const mib = roundDown(ceiling);
  return mib >= 64 ? mib : null;
}
