import path from "node:path";

/**
 * True when `child` is `parent` or below it. Both must already be real (symlink-free) absolute
 * paths: the check compares strings, with a separator after the prefix so that /srv/data2 is
 * not inside /srv/data.
 */
export function isInside(child: string, parent: string): boolean {
  const p = path.resolve(parent);
  const c = path.resolve(child);
  if (c === p) return true;
  const prefix = p.endsWith(path.sep) ? p : p + path.sep;
  return c.startsWith(prefix);
}
