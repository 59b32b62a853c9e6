import type { DdParams } from "./params";

/** dd's clock stops when its last write() returns: the cache flags decide what was measured. */
export function ddAdvice(p: DdParams): string[] {
  const out: string[] = [];
  if (p.mode === "read") {
    if (!p.direct) {
      out.push("dd read without iflag=direct: a file that was just written is read back from the page cache, not the disk. Use iflag=direct (read-direct) or drop the caches first.");
    }
    return out;
  }
  if (!p.direct && !p.fdatasync) {
    // Whether the cache absorbed the whole write depends on the run: once the dirty pages pass
    // the kernel's thresholds write-back paces dd, which the run's diagnosis then shows; the
    // advice says what the setup allows, not what happened.
    out.push("dd wrote without oflag=direct and without conv=fdatasync: it stopped the clock with data possibly still in the page cache, so the rate is memory speed unless write-back paced dd (the diagnosis then says so), and in neither case the disk's own rate. Use write-direct, or at least conv=fdatasync (write-buffered).");
  } else if (!p.direct) {
    out.push("dd wrote through the page cache (no oflag=direct): conv=fdatasync keeps the total honest, but the rate mixes cache and disk. Use oflag=direct (write-direct) for the disk's own rate.");
  } else if (!p.fdatasync) {
    out.push("dd wrote with oflag=direct but without conv=fdatasync: the drive's own write cache may still hold the last blocks when the clock stops. Add conv=fdatasync.");
  }
  return out;
}
