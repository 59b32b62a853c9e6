import type { AdviceContext } from "../core/probe";
import type { FsmetaParams } from "./params";

/** Below this many files per directory, every directory fits in a few blocks and in the caches. */
const SMALL_DIR = 10_000;

/** A small directory hides what large ones cost; parallel workers measure more than the disk. */
export function fsmetaAdvice(p: FsmetaParams, _context: AdviceContext): string[] {
  const out: string[] = [];
  const perDir = p.files / p.dirs;
  if (p.dirs === 1 && perDir < SMALL_DIR) {
    out.push(
      `${perDir.toLocaleString("en")} files in one directory is a small directory: its index stays in a few blocks and in the cache, so large-directory costs (the 50,000-table case) do not show. Use the flat-50k preset for that.`,
    );
  }
  if (p.dirs > 1) {
    out.push(
      `The tree layout runs ${p.dirs} fio workers at once, one per directory: on a host with fewer CPUs than workers the rates also measure scheduling. Compare it with the flat layout on the same host, not with other hosts' flat runs.`,
    );
  }
  return out;
}
