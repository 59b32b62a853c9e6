// sar column vocabulary: which table a header belongs to, what unit each column has, and how
// sadf -j keys map back to the column names sar prints. sar does not translate column names
// (only "Average:" and the dates are localised), so English names are matched directly.

/** Columns that identify a row instead of holding a value, and the dims key they become. */
export const KEY_COLUMNS: Record<string, string> = {
  DEV: "device",
  CPU: "cpu",
  IFACE: "iface",
  INTR: "intr",
  TTY: "tty",
  FILESYSTEM: "filesystem",
  MOUNTPOINT: "mountpoint",
  BUS: "bus",
  FCHOST: "fchost",
};

export function sectionFor(columns: readonly string[]): string {
  const has = (c: string) => columns.includes(c);
  if (has("pgpgin/s") || has("pgscank/s") || has("%vmeff")) return "paging";
  if (has("DEV") && (has("tps") || has("await") || has("%util"))) return "disk";
  if (has("kbmemfree")) return "memory";
  if (has("CPU") && (has("%user") || has("%usr") || has("%idle"))) return "cpu";
  if (has("kbswpfree")) return "swap";
  if (has("pswpin/s")) return "swapping";
  if (has("IFACE")) return "network";
  if (has("runq-sz")) return "queue";
  if (has("rtps") || has("bread/s")) return "io";
  if (has("proc/s") || has("cswch/s")) return "tasks";
  if (has("kbhugfree")) return "hugepages";
  if (has("dentunusd")) return "inodes";
  return "other";
}

const SECTOR_RATES = new Set(["rd_sec/s", "wr_sec/s", "dc_sec/s", "bread/s", "bwrtn/s", "bdscd/s"]);
const KIB_RATES = new Set(["pgpgin/s", "pgpgout/s"]);
const MILLISECONDS = new Set(["await", "r_await", "w_await", "d_await", "f_await", "svctm"]);
const KIB_SIZES = new Set(["areq-sz", "rareq-sz", "wareq-sz", "dareq-sz"]);

/**
 * Units, following sar(1):
 * - "%" for %-columns; "kB" for kb* amounts and the 12.x request sizes (areq-sz);
 * - "kB/s" for *kB/s rates and pgpgin/s, pgpgout/s (kilobytes paged per second);
 * - "sectors/s" for rd_sec/s, wr_sec/s, bread/s … (512-byte sectors), "sectors" for avgrq-sz;
 * - "ms" for await and svctm; "1/s" for every other per-second count and tps;
 * - "MB" for MBfs*; "" for counts and queue lengths (aqu-sz, runq-sz, ldavg-1 …).
 */
export function unitFor(column: string): string {
  if (column.startsWith("%")) return "%";
  if (KIB_RATES.has(column) || /kB\/s$/.test(column)) return "kB/s";
  if (SECTOR_RATES.has(column)) return "sectors/s";
  if (column === "avgrq-sz") return "sectors";
  if (KIB_SIZES.has(column) || /^kb/.test(column)) return "kB";
  if (MILLISECONDS.has(column)) return "ms";
  if (column.endsWith("/s") || column === "tps") return "1/s";
  if (column.startsWith("MB")) return "MB";
  return "";
}

// sadf -j keys of the four main sections → sar's column names.
const PAGING: Record<string, string> = {
  pgpgin: "pgpgin/s", pgpgout: "pgpgout/s", fault: "fault/s", majflt: "majflt/s", pgfree: "pgfree/s",
  pgscank: "pgscank/s", pgscand: "pgscand/s", pgsteal: "pgsteal/s", "vmeff-percent": "%vmeff",
};
const MEMORY: Record<string, string> = {
  memfree: "kbmemfree", avail: "kbavail", memused: "kbmemused", "memused-percent": "%memused",
  buffers: "kbbuffers", cached: "kbcached", commit: "kbcommit", "commit-percent": "%commit",
  active: "kbactive", inactive: "kbinact", dirty: "kbdirty", anonpg: "kbanonpg", slab: "kbslab",
  kstack: "kbkstack", pgtbl: "kbpgtbl", vmused: "kbvmused", swpfree: "kbswpfree", swpused: "kbswpused",
  "swpused-percent": "%swpused", swpcad: "kbswpcad", "swpcad-percent": "%swpcad",
};
const DISK: Record<string, string> = {
  tps: "tps", rd_sec: "rd_sec/s", wr_sec: "wr_sec/s", dc_sec: "dc_sec/s", rkB: "rkB/s", wkB: "wkB/s",
  dkB: "dkB/s", "avgrq-sz": "avgrq-sz", "areq-sz": "areq-sz", "avgqu-sz": "avgqu-sz", "aqu-sz": "aqu-sz",
  await: "await", svctm: "svctm", "util-percent": "%util",
};
const CPU_KEYS = new Set(["user", "usr", "nice", "system", "sys", "iowait", "steal", "irq", "soft", "guest", "gnice", "idle"]);

/** The sar column name for a sadf -j key; unknown sections keep sadf's key ("-percent" → "%"). */
export function sadfColumn(section: string, key: string): string {
  const mapped =
    section === "paging" ? PAGING[key] : section === "memory" ? MEMORY[key] : section === "disk" ? DISK[key] : undefined;
  if (mapped) return mapped;
  if (section === "cpu" && CPU_KEYS.has(key)) return `%${key}`;
  if (key.endsWith("-percent")) return `%${key.slice(0, -"-percent".length)}`;
  return key;
}
