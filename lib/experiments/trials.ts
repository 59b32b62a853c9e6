// One-click experiments ("trials"): for each tunable, WHEN the setting binds and a workload sized
// from the host's own profile so that it does in one arm and not in the other. A trial that no
// Probebook probe can make bind on this host is refused with the reason, so that nobody reads
// "no difference" from an experiment that could never have shown one. Pure: no database.
import { offeredSpec, TUNABLE_TRIALS, type OfferedTrialSpec as TrialSpec } from "@/content/experiment-start-points";
import { FREE_SPACE_MARGIN_BYTES } from "../../probes/core/sizing";

const MiB = 2 ** 20;
/** What the agent keeps free beyond a run's files (probes/admission.ts). */
const MARGIN = FREE_SPACE_MARGIN_BYTES;

/** The facts of one host (and the target directory an experiment would use) a trial sizes from. */
export interface TrialHost {
  name: string;
  memTotalBytes: number | null;
  /** MemFree + Active(file) + Inactive(file): what the dirty ratios are percentages of. */
  dirtyableBytes: number | null;
  /** Current host settings (the agent's capabilities, else the profile's sysctls). */
  settings: Record<string, string>;
  numaNodes: number | null;
  freeBytesPerNode: Record<string, number> | null;
  dropCachesAllowed: boolean;
  target: {
    path: string;
    fsType: string | null;
    medium: string | null;
    /** Whole disk, e.g. "vda"; null on tmpfs. */
    device: string | null;
    freeBytes: number | null;
    /** Current queue/* values of that disk, by tunable name. */
    queue: Record<string, string>;
    /** The device's hardware queue depth when known. */
    hwQueueDepth: number | null;
  } | null;
}

export type TrialOffer =
  | { offered: true; tunable: string; probe: string; preset: string; params: Record<string, unknown>; values: string[]; dropCaches: boolean; headline: string; risk: string | null; warnings: string[] }
  | { offered: false; tunable: string; reason: string };

const gib = (b: number) => `${(b / 2 ** 30).toFixed(1)} GiB`;
const mibOf = (b: number) => `${Math.round(b / MiB)} MiB`;
const refuse = (tunable: string, reason: string): TrialOffer => ({ offered: false, tunable, reason });
const int = (v: string | undefined) => (v !== undefined && /^\d+$/.test(v.trim()) ? Number(v.trim()) : null);
const onMemory = (t: NonNullable<TrialHost["target"]>) => t.fsType === "tmpfs" || t.fsType === "ramfs" || t.medium === "memory";
const roomOf = (t: NonNullable<TrialHost["target"]>) => (t.freeBytes === null ? Infinity : t.freeBytes - MARGIN);

/**
 * The kernel's dirty thresholds for one arm. vm.rst (Documentation/admin-guide/sysctl/vm.rst):
 * dirty_ratio is a "percentage of total available memory that contains free pages and reclaimable
 * pages"; dirty_bytes and dirty_background_bytes are the counterparts ("only one of them may be
 * specified at a time"). mm/page-writeback.c (domain_dirty_limits): a background threshold at or
 * above the dirty one becomes half of it. Since 3.2 a writer runs unthrottled up to the freerun
 * point (background + limit) / 2 and is paced to the device between there and the limit.
 */
export function dirtyThresholds(dirtyable: number, s: { ratio: number; bgRatio: number; bytes: number; bgBytes: number }) {
  const limit = s.bytes > 0 ? s.bytes : (dirtyable * s.ratio) / 100;
  let bg = s.bgBytes > 0 ? s.bgBytes : (dirtyable * s.bgRatio) / 100;
  if (bg >= limit) bg = limit / 2;
  return { limit, bg, freerun: (bg + limit) / 2 };
}

/** The largest file of a band [lo, hi], rounded down to 8 MiB; null when it does not fit. */
function topOfBand(lo: number, hi: number): number | null {
  const top = Math.floor(hi / (8 * MiB)) * 8 * MiB;
  return top > lo ? top : null;
}

/** The file of a band [lo, hi]: its geometric middle, rounded down to 8 MiB; null when it does not fit. */
function inBand(lo: number, hi: number): number | null {
  if (!(hi > lo)) return null;
  const mid = Math.floor(Math.sqrt(lo * hi) / (8 * MiB)) * 8 * MiB;
  return mid > lo && mid < hi ? mid : null;
}

function dirtyTrial(tunable: "vm.dirty_ratio" | "vm.dirty_background_ratio", spec: TrialSpec, host: TrialHost, values: string[]): TrialOffer {
  const t = host.target!;
  if (host.dirtyableBytes === null) return refuse(tunable, `${host.name}'s agent does not report its dirty thresholds (free and file pages); update the agent.`);
  const n = (k: string, d: number) => int(host.settings[k]) ?? d;
  if (n("vm.dirty_bytes", 0) > 0 || n("vm.dirty_background_bytes", 0) > 0) {
    // Writing a ratio zeroes its bytes counterpart (vm.rst), so the arms would not be what they say.
    return refuse(tunable, `${host.name} sets vm.dirty_bytes or vm.dirty_background_bytes: they override the ratios, and writing a ratio would clear them.`);
  }
  const nums = values.map((v) => int(v));
  if (nums.some((x) => x === null)) return refuse(tunable, `${tunable} takes whole percentages; got ${values.join(", ")}.`);
  const arms = (nums as number[]).map((v) =>
    dirtyThresholds(host.dirtyableBytes!, {
      ratio: tunable === "vm.dirty_ratio" ? v : n("vm.dirty_ratio", 20),
      bgRatio: tunable === "vm.dirty_background_ratio" ? v : n("vm.dirty_background_ratio", 10),
      bytes: 0,
      bgBytes: 0,
    }),
  );
  const low = arms.reduce((a, b) => (b.limit + b.bg < a.limit + a.bg ? b : a));
  const high = arms.reduce((a, b) => (b.limit + b.bg > a.limit + a.bg ? b : a));
  // 4 MiB buffered writes over one cached file for 6 s. What the setting changes is whether the
  // writer is paused: past its freerun point balance_dirty_pages (mm/page-writeback.c) sleeps it
  // for tens of ms at a time to pace it to the disk, which shows in the bandwidth (rewriting
  // cached pages runs at memory speed) and in the tail of the write latencies.
  // dirty_ratio: the file is larger than the low arm's limit, so most of it is clean at any moment
  // and each pass dirties pages again, which the kernel counts; it stays under the high arm's
  // freerun point, so that arm's writer is never paused however often it rewrites. As large as
  // that allows, so that many writes are paused.
  // dirty_background_ratio: between the arms' freerun points.
  const [lo, hi] = tunable === "vm.dirty_ratio" ? [low.limit * 1.25, high.freerun * 0.85] : [low.freerun * 1.1, high.freerun * 0.9];
  const size = (tunable === "vm.dirty_ratio" ? topOfBand : inBand)(lo, Math.min(hi, roomOf(t)));
  if (size === null) {
    const why = hi <= lo ? `the arms' thresholds leave no file size between ${mibOf(lo)} and ${mibOf(hi)}` : `the file would need ${mibOf(lo)} or more and ${t.path} has ${mibOf(roomOf(t))} to spare`;
    return refuse(tunable, `On ${host.name} (${gib(host.dirtyableBytes)} dirtyable) ${why}: choose values further apart or another target.`);
  }
  return {
    offered: true,
    tunable,
    probe: spec.probe,
    preset: spec.preset,
    // fio lays the file out first and keeps it cached (overwrite, invalidate=0): the timed writes
    // dirty cached pages, with no page allocation in the timing. No fsync: the final flush is not
    // what the setting changes.
    params: { rw: "write", blockSizeKiB: 4096, sizeMiB: size / MiB, runtimeSec: 6, overwrite: true, invalidate: false, ioengine: "psync", iodepth: 1, numjobs: 1, direct: false },
    values,
    dropCaches: false,
    headline: spec.headline,
    risk: spec.risk ?? null,
    warnings: [`Sized from ${gib(host.dirtyableBytes)} of free and file pages when the profile was read: a ${mibOf(size)} file lies between ${mibOf(lo)} and ${mibOf(hi)}. If the host's memory use changes much, the band moves.`],
  };
}

function zoneReclaimTrial(spec: TrialSpec, host: TrialHost, values: string[]): TrialOffer {
  const name = "vm.zone_reclaim_mode";
  if (host.numaNodes === null) return refuse(name, `${host.name}'s agent does not report its NUMA nodes; update the agent.`);
  if (host.numaNodes <= 1) return refuse(name, `${host.name} has one NUMA node: zone reclaim has no other node to prefer.`);
  const free = host.freeBytesPerNode;
  const node0 = free?.["0"];
  if (!free || node0 === undefined) return refuse(name, `${host.name}'s agent does not report each NUMA node's free memory; update the agent.`);
  const all = Object.values(free).reduce((a, b) => a + b, 0);
  // Larger than node 0's free memory (mode 1 reclaims node 0's own cache and rereads from the
  // disk) and smaller than every node's (mode 0 spills to another node and stays cached).
  const size = inBand(node0 * 1.25, Math.min(all * 0.8, roomOf(host.target!)));
  if (size === null) return refuse(name, `No file fits between node 0's free memory (${gib(node0)}) and all nodes' (${gib(all)}) in ${host.target!.path}.`);
  return {
    offered: true,
    tunable: name,
    probe: spec.probe,
    preset: spec.preset,
    params: { rw: "read", blockSizeKiB: 1024, sizeMiB: size / MiB, runtimeSec: 30, ioengine: "psync", iodepth: 1, numjobs: 1, direct: false, numaCpuNodes: "0" },
    // Never the risky value first: the baseline is the kernel's default, 0.
    values: ["0", ...values.filter((v) => v !== "0")],
    dropCaches: host.dropCachesAllowed,
    headline: spec.headline,
    risk: spec.risk ?? null,
    warnings: host.dropCachesAllowed ? [] : ["Without vm.drop_caches allowed, each run starts with whatever the last one left cached."],
  };
}

/**
 * Sequential buffered reads a fast disk of this kind can serve (bytes/s), so that the faster arm
 * still lasts the 5 s a measurement needs (probes/checks/generic.ts): a SATA SSD reads 0.55 GB/s,
 * but a VM's virtio disk served from its host's page cache read 2 GB/s here (read_ahead_kb 128).
 */
const fastReadRate = (device: string) => (/^nvme/.test(device) ? 3.5e9 : 2e9);

function queueTrial(tunable: string, spec: TrialSpec, host: TrialHost, values: string[]): TrialOffer {
  const t = host.target!;
  if (!t.device) return refuse(tunable, `${t.path} is not on a block device Probebook knows, so it has no ${tunable}.`);
  const base = { probe: spec.probe, preset: spec.preset, headline: spec.headline, risk: spec.risk ?? null, dropCaches: false, tunable, offered: true as const };
  if (tunable === "queue/scheduler") {
    const now = t.queue["queue/scheduler"] ?? null;
    const vals = now && !values.includes(now) ? [now, ...values.filter((v) => v !== now)].slice(0, 2) : now ? [now, ...values.filter((v) => v !== now)] : values;
    // Requests wait in the scheduler only when more are in flight than the device takes at once.
    return { ...base, params: { rw: "randread", blockSizeKiB: 4, sizeMiB: 1024, runtimeSec: 30, ioengine: "libaio", iodepth: 32, numjobs: 1, direct: true }, values: vals, warnings: [] };
  }
  if (tunable === "queue/nr_requests") {
    const now = int(t.queue["queue/nr_requests"]);
    if (now === null) return refuse(tunable, `${host.name}'s agent does not report ${t.device}'s current nr_requests: allow queue/nr_requests on the agent.`);
    const small = Math.max(4, Math.min(32, 2 ** Math.floor(Math.log2(now / 4))));
    if (small >= now) return refuse(tunable, `${t.device}'s nr_requests is ${now}: there is no smaller value worth comparing.`);
    const iodepth = Math.min(1024, Math.max(32, 4 * small));
    // Below the device's own depth the small arm also keeps the device from filling its queue:
    // on a host that serves anything, that is a throughput cut for everyone while it runs.
    const belowHw = t.hwQueueDepth !== null && small < t.hwQueueDepth;
    const risk = belowHw ? `${small} is below ${t.device}'s hardware queue depth ${t.hwQueueDepth}: while the small arm runs, everything on ${t.device} can have fewer requests in flight than the device takes.` : base.risk;
    const warnings = t.hwQueueDepth === null ? [`${host.name}'s agent does not report ${t.device}'s hardware queue depth: ${small} may be below it.`] : [];
    return { ...base, risk, params: { rw: "randread", blockSizeKiB: 4, sizeMiB: 1024, runtimeSec: 30, ioengine: "libaio", iodepth, numjobs: 1, direct: true }, values: [String(now), String(small)], warnings };
  }
  // queue/read_ahead_kb: buffered 4 KiB sequential reads from the disk (O_DIRECT bypasses
  // read-ahead), in passes over one file. fio lays the file out, fsyncs it (create_fsync, on by
  // default) and, each time it opens it for a pass, drops its pages from the page cache
  // (invalidate, on by default; fio's HOWTO): every pass reads cold without dropping the whole
  // host's cache. A pass lasts a second at a fast disk's rate; six make a measurement.
  const need = fastReadRate(t.device);
  if (need > roomOf(t)) return refuse(tunable, `A pass that a fast disk cannot finish in a second needs ${gib(need)} and ${t.path} has ${gib(roomOf(t))} to spare.`);
  const sizeMiB = Math.ceil(need / MiB / 64) * 64;
  return { ...base, params: { rw: "read", blockSizeKiB: 4, sizeMiB, loops: 6, ioengine: "psync", iodepth: 1, numjobs: 1, direct: false }, values, warnings: [`fio lays out a ${gib(sizeMiB * MiB)} file before every run, which takes time on a slow disk.`] };
}

/**
 * The trial of `tunable` on `host`: offered with a workload sized so that the setting binds, or
 * refused with the reason. `values` defaults to the trial's own (the kernel default first).
 */
export function planTrial(tunable: string, host: TrialHost, values?: string[]): TrialOffer {
  const any = TUNABLE_TRIALS[tunable];
  if (!any) return refuse(tunable, `No Probebook experiment shows ${tunable}'s effect.`);
  const spec = offeredSpec(any);
  if (!spec) return refuse(tunable, any.notOffered ?? "");
  const vals = values && values.length >= 2 ? values : spec.values.split(",");
  if (!host.target) return refuse(tunable, `${host.name} has no target directory to run in.`);
  if (onMemory(host.target)) return refuse(tunable, `${host.target.path} is on tmpfs: its pages live in memory, are never written back and never read from a disk, so ${tunable} cannot change what the probe measures there.`);
  if (tunable === "vm.dirty_ratio" || tunable === "vm.dirty_background_ratio") return dirtyTrial(tunable, spec, host, vals);
  if (tunable === "vm.zone_reclaim_mode") return zoneReclaimTrial(spec, host, vals);
  return queueTrial(tunable, spec, host, vals);
}
