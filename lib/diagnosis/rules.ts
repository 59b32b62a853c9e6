// The guides' symptoms as data. Each rule names the series it reads (see ./timeline.ts for
// where each comes from), the condition a sample must meet, how many samples make a finding,
// and the guide section that explains it. Adding a rule is adding an entry here and a test on
// a real output that shows the symptom.

export type Op = ">" | ">=" | "<" | "<=";

export interface Condition {
  series: string;
  op: Op;
  /** A number, or another series of the same sample times a factor (e.g. 0.9 × dirty limit). */
  than: number | { series: string; times: number };
}

export interface Rule {
  id: string;
  severity: "info" | "warning" | "critical";
  title: string;
  /** Every condition must hold in the same sample. */
  all: Condition[];
  /** Samples that must match for a finding; a fraction (< 1) means that share of all samples. */
  minSamples: number;
  /** With {count}, {total} and {first}/{last} (seconds or sample times) filled in. */
  summary: string;
  guide: { slug: string; section: string };
}

const GiB_IN_KB = 1024 * 1024;

export const RULES: readonly Rule[] = [
  {
    id: "zone-reclaim",
    severity: "critical",
    title: "Direct reclaim while another NUMA node had free memory",
    all: [
      { series: "paging.pgscand", op: ">", than: 0 },
      { series: "numa.maxFreeKb", op: ">", than: GiB_IN_KB },
    ],
    minSamples: 1,
    summary:
      "In {count} of {total} samples ({first} to {last}) processes scanned pages themselves (pgscand/s > 0) while a NUMA node still had more than 1 GiB free: the kernel reclaimed locally instead of allocating on the other node, which is what vm.zone_reclaim_mode = 1 does.",
    guide: { slug: "linux-memory-numa-databases", section: "Findings" },
  },
  {
    id: "direct-reclaim",
    severity: "warning",
    title: "Direct reclaim",
    all: [{ series: "paging.pgscand", op: ">", than: 0 }],
    minSamples: 2,
    summary:
      "In {count} of {total} samples ({first} to {last}) application threads reclaimed memory themselves (pgscand/s > 0), which stalls them; on a NUMA machine check vm.zone_reclaim_mode.",
    guide: { slug: "linux-memory-numa-databases", section: "What to tune" },
  },
  {
    // The kernel lets writers dirty pages freely up to about the background threshold and then
    // paces them to the device's write-back speed (balance_dirty_pages): pending pages hold near
    // the limit while pages are dirtied exactly as fast as they are written.
    id: "writeback-throttling",
    severity: "warning",
    title: "Writers paced by write-back above the background threshold",
    all: [
      { series: "writeback.pendingKb", op: ">=", than: { series: "writeback.backgroundLimitKb", times: 0.8 } },
      { series: "writeback.dirtiedKBs", op: ">", than: 1024 },
      { series: "writeback.dirtiedKBs", op: "<=", than: { series: "writeback.writtenKBs", times: 1.25 } },
      { series: "writeback.dirtiedKBs", op: ">=", than: { series: "writeback.writtenKBs", times: 0.75 } },
    ],
    minSamples: 3,
    summary:
      "In {count} of {total} samples ({first} to {last}) dirty and write-back pages held at or above 80 % of the kernel's background write-back threshold while pages were dirtied only as fast as the device wrote them: the writer was throttled, so the run measured write-back to the device, not the page cache. vm.dirty_background_ratio sets where write-back starts and vm.dirty_ratio where writers are made to wait.",
    guide: { slug: "storage-media-disk-flash-memory", section: "Findings" },
  },
  {
    id: "page-cache-reads",
    severity: "warning",
    title: "Reads served from the page cache, not the device",
    all: [
      { series: "probe.readKBs", op: ">", than: 0 },
      { series: "device.rkBs", op: "<", than: { series: "probe.readKBs", times: 0.1 } },
    ],
    minSamples: 0.8,
    summary:
      "The probe read at a rate the device did not see: in {count} of {total} samples the device read less than a tenth of it. The data came from memory; use direct I/O or a file larger than RAM to measure the disk.",
    guide: { slug: "ext2-ext3-ext4-iozone", section: "Caveats" },
  },
  {
    id: "device-bound",
    severity: "info",
    title: "The device was the limit",
    all: [
      { series: "device.util", op: ">=", than: 95 },
      { series: "device.aquSz", op: ">=", than: 2 },
    ],
    minSamples: 0.5,
    summary:
      "In {count} of {total} samples ({first} to {last}) the device was busy ≥ 95 % of the time with two or more requests queued: the run measured the device at its limit, and more parallelism will not help.",
    guide: { slug: "storage-media-disk-flash-memory", section: "Findings" },
  },
  {
    id: "cpu-steal",
    severity: "warning",
    title: "Noisy neighbour: CPU stolen by the hypervisor",
    all: [{ series: "cpu.steal", op: ">=", than: 10 }],
    minSamples: 3,
    summary:
      "In {count} of {total} samples ({first} to {last}) the hypervisor gave 10 % or more of the CPU time to other guests (%steal): numbers from this run may not repeat; run again at another time or on dedicated hardware.",
    guide: { slug: "multicore-memory-bandwidth", section: "Caveats" },
  },
];
