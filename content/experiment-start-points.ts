// Editorial knowledge behind the experiment start points: which probe shows a tunable's effect
// and which values are worth setting side by side, and the question each guide asks as an
// experiment on the reader's own host. lib/experiments/start-points.ts turns these into links.

/** Which probe shows a setting's effect, and two values worth comparing (the kernel default first). */
export const TUNABLE_TRIALS: Record<string, { probe: string; preset: string; values: string }> = {
  "vm.dirty_ratio": { probe: "dd", preset: "write-buffered", values: "20,5" },
  "vm.dirty_background_ratio": { probe: "dd", preset: "write-buffered", values: "10,2" },
  "vm.dirty_expire_centisecs": { probe: "dd", preset: "write-buffered", values: "3000,500" },
  "vm.dirty_writeback_centisecs": { probe: "dd", preset: "write-buffered", values: "500,100" },
  "vm.swappiness": { probe: "sar", preset: "paging", values: "60,1" },
  "vm.zone_reclaim_mode": { probe: "sar", preset: "paging", values: "0,1" },
  "vm.vfs_cache_pressure": { probe: "fsmeta", preset: "quick", values: "100,50" },
  "thp.enabled": { probe: "sar", preset: "memory", values: "always,never" },
  "thp.defrag": { probe: "sar", preset: "memory", values: "always,never" },
  "queue/scheduler": { probe: "fio", preset: "rand-read-4k", values: "mq-deadline,none" },
  "queue/read_ahead_kb": { probe: "dd", preset: "read-direct", values: "128,1024" },
  "queue/nr_requests": { probe: "fio", preset: "rand-read-4k", values: "256,64" },
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
    note: "Each file system gets a fresh lab volume of the same size on the same disk, in alternating order; the article's IOzone run is scaled to the lab's free space.",
  },
  "storage-media-disk-flash-memory": {
    label: "Test this on my host: vm.dirty_ratio 20 against 5",
    query: { kind: "tunables", tunable: "vm.dirty_ratio", values: "20,5", probe: "dd", preset: "write-buffered", min: "3", max: "10" },
    note: "How much dirty data the kernel lets writers pile up changes buffered write throughput; each run puts the setting back.",
  },
  "linux-memory-numa-databases": {
    label: "Test this on my host: vm.zone_reclaim_mode 0 against 1",
    query: { kind: "tunables", tunable: "vm.zone_reclaim_mode", values: "0,1", probe: "sar", preset: "paging", min: "3", max: "10" },
    note: "zone_reclaim_mode only matters with more than one NUMA node: on a single-node host both arms behave alike, and the form says so.",
  },
};

