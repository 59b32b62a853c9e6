// Sizing a preset's file for the host it runs on.

/**
 * The file size for a preset sized beyond RAM: twice the host's RAM, at most 80 % of the
 * target's free space (the run needs the whole file), at least 1 GiB; null when the RAM size is
 * unknown. Whole GiB, so the number in the form is easy to read.
 */
export function sizeBeyondRamMiB(memTotalBytes: number | null, freeBytes: number | null): number | null {
  if (memTotalBytes === null || !(memTotalBytes > 0)) return null;
  const GiB = 1024;
  let mib = Math.ceil((2 * memTotalBytes) / 2 ** 30) * GiB;
  if (freeBytes !== null && freeBytes > 0) mib = Math.min(mib, Math.floor((0.8 * freeBytes) / 2 ** 30) * GiB);
  return Math.min(Math.max(mib, GiB), 1024 * 1024);
}
