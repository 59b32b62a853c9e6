// Where an experiment can start from: a guide's question, a tunable from the index, a comparison.
// Each is a link to the new-experiment form with its fields filled in through the query string.
import { getTunable } from "../../probes/tunables/catalogue";

const href = (q: Record<string, string>) => `/experiments/new?${new URLSearchParams(q)}`;

/** Which probe shows a setting's effect, and two values worth comparing (the kernel default first). */
const TUNABLE_TRIALS: Record<string, { probe: string; preset: string; values: string }> = {
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

/** "Try on a host" for a name of the tunables index; null when an experiment cannot change it. */
export function tunableExperimentHref(name: string): string | null {
  const trial = TUNABLE_TRIALS[name];
  if (!trial || !getTunable(name)) return null;
  return href({ kind: "tunables", tunable: name, probe: trial.probe, preset: trial.preset, values: trial.values, min: "3", max: "10" });
}

export interface GuideExperiment {
  label: string;
  href: string;
  note: string;
}

/** The question a guide asks, as an experiment on the reader's own host. */
const GUIDE_EXPERIMENTS: Record<string, GuideExperiment> = {
  "ext2-ext3-ext4-iozone": {
    label: "Test this on my host: ext2, ext3, ext4 and xfs",
    href: href({ kind: "lab", fs: "ext2,ext3,ext4,xfs", probe: "iozone", preset: "ext-article", min: "3", max: "5" }),
    note: "Each file system gets a fresh lab volume of the same size on the same disk, in alternating order; the article's IOzone run is scaled to the lab's free space.",
  },
  "storage-media-disk-flash-memory": {
    label: "Test this on my host: vm.dirty_ratio 20 against 5",
    href: href({ kind: "tunables", tunable: "vm.dirty_ratio", values: "20,5", probe: "dd", preset: "write-buffered", min: "3", max: "10" }),
    note: "How much dirty data the kernel lets writers pile up changes buffered write throughput; each run puts the setting back.",
  },
  "linux-memory-numa-databases": {
    label: "Test this on my host: vm.zone_reclaim_mode 0 against 1",
    href: href({ kind: "tunables", tunable: "vm.zone_reclaim_mode", values: "0,1", probe: "sar", preset: "paging", min: "3", max: "10" }),
    note: "zone_reclaim_mode only matters with more than one NUMA node: on a single-node host both arms behave alike, and the form says so.",
  },
};

export function guideExperiment(slug: string): GuideExperiment | null {
  return GUIDE_EXPERIMENTS[slug] ?? null;
}

/**
 * "Turn this into an experiment" from compared runs: the same probe on the first run's host; the
 * file systems the runs differ by become lab arms.
 */
export function compareExperimentHref(runs: readonly { probe: string; hostId: string | null; fsType: string | null }[]): string | null {
  const first = runs[0];
  if (!first) return null;
  const lab = ["ext2", "ext3", "ext4", "xfs", "btrfs"];
  const fs = [...new Set(runs.flatMap((r) => (r.fsType && lab.includes(r.fsType) ? [r.fsType] : [])))];
  return href({ probe: first.probe, ...(first.hostId ? { host: first.hostId } : {}), ...(fs.length >= 2 ? { kind: "lab", fs: fs.join(",") } : {}), min: "3", max: "10" });
}
