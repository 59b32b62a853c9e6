// The guides' symptoms as data. Each rule names the series it reads (see ./timeline.ts for
// where each comes from), the condition a sample must meet, how many samples make a finding, the
// kernel mechanism behind it, what it cannot tell, and the guide section (or, where no guide
// covers it, the external document) that explains it. Adding a rule is adding an entry here and
// tests on real captures where it fires and where it stays silent.
//
// Kernel sources the rules are read against:
// - Documentation/admin-guide/sysctl/vm.rst: dirty_ratio / dirty_bytes (a non-zero _bytes value
//   zeroes the ratio), dirty_background_*, zone_reclaim_mode (off by default since Linux 3.16,
//   commit 4f9b16a64753 "mm: disable zone_reclaim_mode by default").
// - mm/page-writeback.c, balance_dirty_pages(): I/O-less dirty throttling since Linux 3.2; a
//   writer is not paced while dirty + writeback pages stay at or below dirty_freerun_ceiling(),
//   (dirty limit + background threshold) / 2, and is paced between there and the dirty limit.
// - Documentation/admin-guide/iostats.rst, field 10 (io_ticks, "# of milliseconds spent doing
//   I/Os"): time with at least one request in flight, whatever the number in flight; field 11
//   (weighted time) is what aqu-sz is made of.
// - sysstat iostat(1), %util: "Device saturation occurs when this value is close to 100% for
//   devices serving requests serially. But for devices serving requests in parallel, such as
//   RAID arrays and modern SSDs, this number does not reflect their performance limits."
// - proc_stat(5), the steal column of /proc/stat: time spent in other operating systems when
//   running in a virtualised environment.
import type { DiagnosisContext } from "./context";
import { dirtySettings } from "./context";

export type Op = ">" | ">=" | "<" | "<=";

export interface Condition {
  series: string;
  op: Op;
  /** A number, or another series of the same sample times a factor (e.g. 0.9 × dirty limit). */
  than: number | { series: string; times: number };
}

/** A guide section, or an external document where no guide discusses the symptom. */
export type RuleSource = { slug: string; section: string } | { title: string; href: string };

export interface Rule {
  id: string;
  /** What a sustained finding is (see SUSTAINED_SAMPLES in ./evaluate.ts for shorter ones). */
  severity: "info" | "warning" | "critical";
  title: string;
  /** Every condition must hold in the same sample. */
  all: Condition[];
  /** Samples that must match for a finding; a fraction (< 1) means that share of all samples. */
  minSamples: number;
  /** Only on hosts whose context says so (e.g. a zone_reclaim_mode value); always when absent. */
  applies?: (ctx: DiagnosisContext) => boolean;
  /** With {count}, {total} and {first}/{last} (seconds or sample times) filled in. */
  summary: string | ((ctx: DiagnosisContext) => string);
  /** Series shown beside the matched ones in the evidence (they decide nothing). */
  show?: string[];
  /** How the kernel produces what the rule reads. */
  mechanism: string;
  /** What the rule cannot see or may get wrong. */
  limits: string;
  guide: RuleSource;
  /** A run that tests what the finding leaves open (a launch form's preset). */
  next?: { title: string; href: string };
}

const GiB_IN_KB = 1024 * 1024;

const NUMA_CONDITIONS: Condition[] = [
  { series: "paging.pgscand", op: ">", than: 0 },
  { series: "numa.maxFreeKb", op: ">", than: GiB_IN_KB },
];
const NUMA_MECHANISM =
  "A process scans pages itself (pgscand, direct reclaim) when its allocation finds the zones it may use below their low watermark. With memory free on another node, the allocation was kept off that node: by vm.zone_reclaim_mode (reclaim the local node first), by a memory policy or cpuset that binds it to one node, or because it needed a contiguous high-order block the free memory could not provide.";
const NUMA_LIMITS =
  "The telemetry sees only the node with the most free memory, not which node the process was allowed to use, nor the allocation order; zone_reclaim_mode comes from the profile the agent took when the probe ended. A single sample is a note, not a finding: pgscand appears briefly on healthy hosts too.";

export const RULES: readonly Rule[] = [
  {
    id: "zone-reclaim",
    severity: "critical",
    title: "Zone reclaim: direct reclaim while another NUMA node had free memory",
    all: NUMA_CONDITIONS,
    minSamples: 1,
    applies: (ctx) => ctx.zoneReclaimMode !== null && ctx.zoneReclaimMode > 0,
    summary: (ctx) =>
      `In {count} of {total} samples ({first} to {last}) processes scanned pages themselves (pgscand/s > 0) while a NUMA node still had more than 1 GiB free. This host runs with vm.zone_reclaim_mode = ${ctx.zoneReclaimMode}, which makes the allocator reclaim on the local node before it allocates on another: the likely cause. Set it to 0 unless the workload is partitioned per node.`,
    mechanism: NUMA_MECHANISM,
    limits: NUMA_LIMITS,
    guide: { slug: "linux-memory-numa-databases", section: "Findings" },
  },
  {
    id: "numa-local-reclaim",
    severity: "warning",
    title: "Direct reclaim while another NUMA node had free memory",
    all: NUMA_CONDITIONS,
    minSamples: 1,
    applies: (ctx) => ctx.zoneReclaimMode === null || ctx.zoneReclaimMode === 0,
    summary: (ctx) =>
      `In {count} of {total} samples ({first} to {last}) processes scanned pages themselves (pgscand/s > 0) while a NUMA node still had more than 1 GiB free. ${
        ctx.zoneReclaimMode === 0
          ? "vm.zone_reclaim_mode is 0 on this host, so this is not zone reclaim."
          : "The run's profile does not record vm.zone_reclaim_mode: if it is not 0 (cat /proc/sys/vm/zone_reclaim_mode), zone reclaim is the likely cause."
      } Memory bound to one node (a cpuset, numactl --membind or --preferred, mbind) reclaims that node while others are free; so do high-order allocations (huge pages, THP, large kernel buffers) on fragmented memory. numastat -p <pid> shows where a process's memory is, /proc/buddyinfo how fragmented each node is.`,
    mechanism: NUMA_MECHANISM,
    limits: NUMA_LIMITS,
    guide: { slug: "linux-memory-numa-databases", section: "What to tune" },
  },
  {
    id: "direct-reclaim",
    severity: "warning",
    title: "Direct reclaim",
    all: [{ series: "paging.pgscand", op: ">", than: 0 }],
    minSamples: 2,
    summary:
      "In {count} of {total} samples ({first} to {last}) application threads reclaimed memory themselves (pgscand/s > 0), which stalls them while they scan.",
    mechanism:
      "kswapd reclaims in the background once a zone falls below its low watermark; an allocation that finds free memory below the min watermark reclaims in the allocating thread (direct reclaim, counted as pgscan_direct in /proc/vmstat, sar -B's pgscand/s).",
    limits:
      "It says that threads waited for reclaim, not which ones or for how long; the causes (memory pressure, a small vm.min_free_kbytes, NUMA binding, fragmentation) are not told apart.",
    guide: { slug: "linux-memory-numa-databases", section: "What to tune" },
  },
  {
    id: "writeback-throttling",
    severity: "warning",
    title: "Writers paced between the freerun point and the dirty limit",
    all: [
      { series: "writeback.pendingKb", op: ">", than: { series: "writeback.freerunKb", times: 1 } },
      { series: "writeback.dirtiedKBs", op: ">", than: 1024 },
      { series: "writeback.dirtiedKBs", op: "<=", than: { series: "writeback.writtenKBs", times: 1.25 } },
      { series: "writeback.dirtiedKBs", op: ">=", than: { series: "writeback.writtenKBs", times: 0.75 } },
    ],
    minSamples: 3,
    show: ["writeback.backgroundLimitKb", "writeback.limitKb"],
    summary: (ctx) => {
      const settings = dirtySettings(ctx);
      return `In {count} of {total} samples ({first} to {last}) dirty and write-back pages were above the freerun point, halfway between the kernel's background threshold and its dirty limit, while pages were dirtied only as fast as they were written: writers were paced between the freerun point and the dirty limit, and in those seconds they wrote at the device's write-back rate, not at memory speed. ${
        settings ? `This host ran with ${settings}; ` : ""
      }vm.dirty_ratio and vm.dirty_background_ratio (or their _bytes forms) set both thresholds.`;
    },
    mechanism:
      "Since Linux 3.2 writers do not write pages back themselves: balance_dirty_pages() lets them run free while dirty + write-back pages stay at or below (background threshold + dirty limit) / 2 and pauses them, harder as the count nears the dirty limit, so that they dirty pages about as fast as the device writes them. Below that point background write-back runs but nobody waits for it.",
    limits:
      "It compares with the global thresholds in /proc/vmstat (nr_dirty_threshold, nr_dirty_background_threshold). Per-device limits (bdi max_ratio, strictlimit devices such as FUSE) and cgroup v2 memory limits can pace a writer below the global freerun point, which this rule does not see. Dirtied and written pages are counted for the whole machine, so another writer's pages are mixed in. Seconds below the freerun point are not pacing even when dirtied ≈ written (write-back keeping up with the writer) and are not counted.",
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
    mechanism:
      "A buffered read of a page already in the page cache is copied from memory and never reaches the block device, whose read counters (/proc/diskstats, iostat's rkB/s) stay still.",
    limits:
      "It compares the probe's average read rate with the device's per-second reads, so a run that read from the device for only part of its time may still fire; reads of a device other than the target's (a file on another mount) look like cache hits.",
    guide: { slug: "ext2-ext3-ext4-iozone", section: "Caveats" },
  },
  {
    id: "device-bound",
    severity: "info",
    title: "The device always had requests in flight (%util ≈ 100)",
    all: [{ series: "device.util", op: ">=", than: 95 }],
    minSamples: 0.5,
    show: ["device.aquSz", "device.rAwait", "device.wAwait"],
    summary: (ctx) => {
      const dev = ctx.device ? `${ctx.device} ` : "";
      const head =
        "In {count} of {total} samples ({first} to {last}) the device had at least one request in flight 95 % of the time or more (%util). %util counts time busy, not capacity.";
      const rotating =
        "On a single rotational disk, which serves one request at a time, that is its limit; a deeper queue only reorders seeks.";
      const parallel =
        "An SSD, NVMe drive, RAID array, virtio disk or loop device serves requests in parallel, so %util near 100 says nothing about saturation; only a run at a deeper queue (more jobs or a higher iodepth) shows whether it goes faster.";
      if (ctx.rotational === true)
        return `${head} The device ${dev}reports itself as rotational. ${rotating} Virtual machines report virtio disks as rotational too: if this is not a spinning disk, read it as one that serves requests in parallel and try a deeper queue.`;
      if (ctx.rotational === false) return `${head} The device ${dev}reports itself as non-rotational. ${parallel}`;
      return `${head} The run does not record whether the device is rotational. ${rotating} ${parallel}`;
    },
    mechanism:
      "%util is the share of time with at least one request in flight (io_ticks, field 10 of /proc/diskstats). A device that serves one request at a time is saturated at 100 %; one that serves many at once reaches 100 % with a single request outstanding and can still go faster with more.",
    limits:
      "One run cannot show scaling: whether more parallelism helps needs a second run at a deeper queue (await rising with aqu-sz while throughput stops rising is the sign of a limit). The rotational flag comes from the profile and can be wrong: virtio disks in VMs report 1, and loop devices take the flag of the device under their backing file.",
    guide: { slug: "storage-media-disk-flash-memory", section: "Findings" },
    next: { title: "fio: random read, 4 KiB, queue depth 32", href: "/runs/new?probe=fio&preset=rand-read-4k-qd32" },
  },
  {
    id: "cpu-steal",
    severity: "warning",
    title: "Noisy neighbour: CPU stolen by the hypervisor",
    all: [{ series: "cpu.steal", op: ">=", than: 10 }],
    minSamples: 3,
    summary:
      "In {count} of {total} samples ({first} to {last}) the hypervisor gave 10 % or more of the CPU time to other guests (%steal): numbers from this run may not repeat; run again at another time or on dedicated hardware.",
    mechanism:
      "A virtual CPU that is ready to run but not scheduled on a physical CPU by the hypervisor accrues steal time, the eighth column of the cpu lines in /proc/stat (sar and mpstat's %steal).",
    limits:
      "Only hypervisors that report steal to the guest (KVM, Xen and others with paravirtual clocks) show it; on bare metal and on hypervisors that do not report it, it stays 0 whatever the contention. It is machine-wide, not per process.",
    guide: { title: "proc_stat(5): the steal column of /proc/stat", href: "https://man7.org/linux/man-pages/man5/proc_stat.5.html" },
  },
];
