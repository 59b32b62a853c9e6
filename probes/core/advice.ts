// Building blocks of setup advice that several probes share.
import { formatBytes } from "./text";

/**
 * "The data set is smaller than twice the RAM": what = the data set ("The test file"), fix = the
 * tool's way to bypass the cache ("set direct=1").
 */
export function pageCacheAdvice(what: string, writtenBytes: number, memTotal: number | undefined, fix: string, only: "writes" | "both" = "both"): string {
  if (only === "writes") {
    // A write job: its figure is how fast the page cache took the data (the kernel writes it back
    // later, pacing the writer only past the dirty thresholds), which is the point when the
    // experiment is about those thresholds.
    return `${what} (${formatBytes(writtenBytes)}) is written through the page cache without a sync: the rate is how fast memory took the data, paced to the disk only once dirty data passes the kernel's thresholds (vm.dirty_*). To measure the disk, ${fix}.`;
  }
  if (memTotal === undefined || memTotal <= 0) {
    return `${what} runs through the page cache and this host's RAM size is unknown: make it at least twice the RAM, or ${fix}, so that reads come from the disk and not from memory.`;
  }
  const needed = 2 * memTotal;
  const factor = Math.ceil(needed / Math.max(writtenBytes, 1));
  return `${what} (${formatBytes(writtenBytes)}) is smaller than twice this host's RAM (2 × ${formatBytes(memTotal)} = ${formatBytes(needed)}) and goes through the page cache: reads are largely served from memory and look faster than the disk. Grow it to at least ${formatBytes(needed)} (about ${factor}× larger) or ${fix}.`;
}
