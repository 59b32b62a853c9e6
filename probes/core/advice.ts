// Building blocks of setup advice that several probes share.
import { formatBytes } from "./text";

/**
 * "The data set is smaller than twice the RAM": what = the data set ("The test file"), fix = the
 * tool's way to bypass the cache ("set direct=1").
 */
export function pageCacheAdvice(what: string, writtenBytes: number, memTotal: number | undefined, fix: string): string {
  if (memTotal === undefined || memTotal <= 0) {
    return `${what} runs through the page cache and this host's RAM size is unknown: make it at least twice the RAM, or ${fix}, so that reads come from the disk and not from memory.`;
  }
  const needed = 2 * memTotal;
  const factor = Math.ceil(needed / Math.max(writtenBytes, 1));
  return `${what} (${formatBytes(writtenBytes)}) is smaller than twice this host's RAM (2 × ${formatBytes(memTotal)} = ${formatBytes(needed)}) and goes through the page cache: reads are largely served from memory and look faster than the disk. Grow it to at least ${formatBytes(needed)} (about ${factor}× larger) or ${fix}.`;
}
