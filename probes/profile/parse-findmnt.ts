import { cleanString, isRecord, parseJsonSafe } from "./json";

export interface MountEntry {
  target: string;
  source: string | null;
  fsType: string | null;
  options: string[];
}

/** Splits "rw,relatime,context=\"a,b\"" on the commas that are outside double quotes. */
export function splitMountOptions(options: string): string[] {
  const out: string[] = [];
  let current = "";
  let quoted = false;
  for (const ch of options) {
    if (ch === '"') quoted = !quoted;
    if (ch === "," && !quoted) {
      if (current) out.push(current);
      current = "";
    } else {
      current += ch;
    }
  }
  if (current) out.push(current);
  return out;
}

/**
 * Flattens the `findmnt -J` tree in document order, so that of two mounts on the same target
 * (an over-mount such as /dev/shm inside /dev/shm) the one mounted last comes last.
 */
export function parseFindmntJson(text: string): MountEntry[] {
  const root = parseJsonSafe(text);
  const out: MountEntry[] = [];
  const walk = (items: unknown): void => {
    if (!Array.isArray(items)) return;
    for (const fs of items) {
      if (!isRecord(fs)) continue;
      const target = cleanString(fs.target);
      if (target !== null) {
        out.push({
          target,
          source: cleanString(fs.source),
          fsType: cleanString(fs.fstype),
          options: typeof fs.options === "string" ? splitMountOptions(fs.options) : [],
        });
      }
      walk(fs.children);
    }
  };
  if (isRecord(root)) walk(root.filesystems);
  return out;
}

function contains(mountPoint: string, path: string): boolean {
  if (mountPoint === "/") return path.startsWith("/");
  return path === mountPoint || path.startsWith(`${mountPoint}/`);
}

/**
 * The mount a (real, absolute) path lives on: the longest mount point that contains it, the
 * last one listed when several are stacked on the same point (the visible one).
 */
export function findMountFor(path: string, mounts: readonly MountEntry[]): MountEntry | null {
  let best: MountEntry | null = null;
  for (const m of mounts) {
    if (!contains(m.target, path)) continue;
    if (best === null || m.target.length >= best.target.length) best = m;
  }
  return best;
}
