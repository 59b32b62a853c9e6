// Editorial knowledge behind the experiment start points: which probe shows a tunable's effect
// and which values are worth setting side by side, and the question each guide asks as an
// experiment on the reader's own host. lib/experiments/start-points.ts turns these into links.

/**
 * A one-click experiment for a tunable: the probe and preset whose figures show its effect, two
 * values (the kernel default first), what the verdict measures and what running it risks. The
 * workload is sized per host by lib/experiments/trials.ts so that the setting binds in one arm
 * and not in the other; `notOffered` says why no Probebook probe can show a setting at all.
 */
export interface OfferedTrialSpec {
  probe: string;
  preset: string;
  values: string;
  headline: string;
  risk?: string;
  notOffered?: undefined;
}
export type TrialSpec = OfferedTrialSpec | { notOffered: string; values: string };

export const offeredSpec = (spec: TrialSpec | undefined): OfferedTrialSpec | null => (spec && "probe" in spec ? spec : null);

const noPressure = (what: string) =>
  `${what} only acts under memory pressure, which no Probebook probe creates: every arm would measure the same thing.`;

export const TUNABLE_TRIALS: Record<string, TrialSpec> = {
  "vm.dirty_ratio": {
    probe: "fio",
    preset: "seq-write",
    values: "20,5",
    headline: "Bandwidth and p99 latency of 4 MiB buffered rewrites of a cached file larger than the low arm's dirty limit and smaller than the high arm's freerun point: the kernel pauses the low arm's writer to pace it to the disk, never the high arm's.",
  },
  "vm.dirty_background_ratio": {
    probe: "fio",
    preset: "seq-write",
    values: "10,2",
    headline: "Bandwidth and p99 latency of 4 MiB buffered rewrites of a cached file between the arms' freerun points: the kernel pauses one arm's writer to pace it to the disk, never the other's.",
  },
  "vm.dirty_expire_centisecs": { notOffered: "It changes when the flusher writes old dirty data, which no probe's own figures show.", values: "3000,500" },
  "vm.dirty_writeback_centisecs": { notOffered: "It changes how often the flusher wakes up, which no probe's own figures show.", values: "500,100" },
  "vm.swappiness": { notOffered: noPressure("Swappiness"), values: "60,10" },
  "vm.zone_reclaim_mode": {
    probe: "fio",
    preset: "seq-read",
    values: "0,1",
    headline: "Buffered sequential reread bandwidth of a file larger than node 0's free memory, read from node 0's CPUs: with 1 it is reclaimed locally and reread from the disk, with 0 it spills to another node and stays cached.",
    risk: "vm.zone_reclaim_mode 1 makes every allocation reclaim on its own node first: on a database or file server it causes the latency spikes the NUMA guide describes. Run it on a host that serves nothing else; each run puts 0 back.",
  },
  "vm.vfs_cache_pressure": { notOffered: noPressure("Dentry and inode cache reclaim"), values: "100,50" },
  "thp.enabled": { notOffered: "Transparent huge pages back anonymous memory; no Probebook probe maps or faults anonymous memory, so every arm would measure the same thing.", values: "always,never" },
  // madvise has been the kernel's default defrag mode since Linux 4.6.
  "thp.defrag": { notOffered: "Huge page defragmentation happens on anonymous page faults under fragmentation, which no Probebook probe creates.", values: "madvise,never" },
  "queue/scheduler": {
    probe: "fio",
    preset: "rand-read-4k-qd32",
    values: "mq-deadline,none",
    headline: "Random 4 KiB read IOPS and p99 latency at queue depth 32: requests wait in the scheduler only when more are in flight than the device takes.",
  },
  "queue/read_ahead_kb": {
    probe: "fio",
    preset: "seq-read",
    values: "128,16",
    headline: "Buffered 4 KiB sequential read bandwidth, one pass over a file fio drops from the page cache before reading: read-ahead decides how much each miss fetches (O_DIRECT would bypass it).",
  },
  "queue/nr_requests": {
    probe: "fio",
    preset: "rand-read-4k-qd32",
    values: "256,32",
    headline: "Random 4 KiB read IOPS and p99 latency at a queue depth at least twice the smaller value, against the device's own current value.",
  },
};

export interface GuideExperimentSpec {
  label: string;
  /** The new-experiment form's query fields. */
  query: Record<string, string>;
  note: string;
}

/** The question a guide asks, by guide slug. */
export const GUIDE_EXPERIMENTS: Record<string, GuideExperimentSpec> = {
  "ext2-ext3-ext4-iozone": {
    label: "Test this on my host: ext2, ext3, ext4 and xfs",
    query: { kind: "lab", fs: "ext2,ext3,ext4,xfs", probe: "iozone", preset: "ext-article", min: "3", max: "5" },
    note: "Each file system gets a fresh lab volume of the same size on the same disk, in alternating order; the form shrinks the article's 4 GiB IOzone file (-s) to what a lab volume of this host can hold, or says why it cannot run.",
  },
  "storage-media-disk-flash-memory": {
    label: "Test this on my host: vm.dirty_ratio 20 against 5",
    query: { kind: "tunables", tunable: "vm.dirty_ratio", values: "20,5", probe: "fio", preset: "seq-write", trial: "vm.dirty_ratio", min: "3", max: "10" },
    note: "Writers are throttled once dirty data reaches the limit: the form sizes a buffered write between the two arms' limits from this host's memory (or says why it cannot), so the low arm is paced to the disk and the high arm is not. Each run puts the setting back.",
  },
  "linux-memory-numa-databases": {
    label: "Test this on my host: vm.zone_reclaim_mode 0 against 1",
    query: { kind: "tunables", tunable: "vm.zone_reclaim_mode", values: "0,1", probe: "fio", preset: "seq-read", trial: "vm.zone_reclaim_mode", min: "3", max: "10" },
    note: "Only on a host with two or more NUMA nodes (elsewhere the form refuses it): a buffered reread from node 0's CPUs of a file larger than node 0's free memory. Mode 1 is the setting this guide warns about, so run it on a host that serves nothing else.",
  },
};

