import { isPerCpuInterruptTable } from "./old-layouts";
import { sectionOfColumn } from "./sadf-json-map";

// sar column vocabulary: which table a header belongs to and what unit each column has (how
// sadf -j keys map back to the column names sar prints is in sadf-json-map.ts). sar does not translate column names
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
  FAN: "fan",
  TEMP: "temp",
  IN: "in",
  BAT: "bat",
};

/**
 * Columns holding words, not numbers: they become dims (the sensor chip of -m FAN/TEMP/IN, the
 * ids and names of -m USB) or are left out ("status" of -m BAT is an arrow in the text and a word
 * in sadf -j, so it could never agree between the two forms).
 */
export const TEXT_COLUMNS: Record<string, string | null> = {
  DEVICE: "device",
  idvendor: "idvendor",
  idprod: "idprod",
  manufact: "manufact",
  product: "product",
  status: null,
};

export function sectionFor(columns: readonly string[]): string {
  const has = (c: string) => columns.includes(c);
  // sysstat ≤ 12.3 per-CPU interrupts: "CPU i000/s i001/s …" (old-layouts.ts).
  if (columns[0] === "INTR" || has("intr/s") || isPerCpuInterruptTable(columns)) return "interrupts";
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
  for (const c of columns) {
    const known = KEY_COLUMNS[c] || TEXT_COLUMNS[c] !== undefined ? null : sectionOfColumn(c);
    if (known) return known;
  }
  if (has("BUS")) return "usb";
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
