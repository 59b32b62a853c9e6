// Parsers of small text files from /proc, /sys and /etc.

/** MemTotal from /proc/meminfo (the kernel always prints it in kB = KiB) in bytes. */
export function parseMemTotalBytes(meminfo: string): number | null {
  const m = /^MemTotal:\s+(\d+)\s*kB\s*$/m.exec(meminfo);
  return m?.[1] !== undefined ? Number(m[1]) * 1024 : null;
}

/** A "Key:  123 kB" line of /proc/meminfo (or a node's meminfo, "Node 0 MemFree: …") in bytes. */
export function parseMeminfoBytes(meminfo: string, key: string): number | null {
  const escaped = key.replace(/[()]/g, "\\$&");
  const m = new RegExp(`^(?:Node \\d+ )?${escaped}:\\s+(\\d+)\\s*kB\\s*$`, "m").exec(meminfo);
  return m?.[1] !== undefined ? Number(m[1]) * 1024 : null;
}

/**
 * The memory the dirty ratios are percentages of: "the total available memory that contains free
 * pages and reclaimable pages" (Documentation/admin-guide/sysctl/vm.rst, dirty_ratio), which
 * mm/page-writeback.c counts as free pages plus the active and inactive file LRU lists.
 */
export function parseDirtyableBytes(meminfo: string): number | null {
  const parts = ["MemFree", "Active(file)", "Inactive(file)"].map((k) => parseMeminfoBytes(meminfo, k));
  return parts.every((x) => x !== null) ? parts.reduce<number>((a, b) => a + (b ?? 0), 0) : null;
}

/** A /proc/vmstat counter (pages) in bytes, with the kernel's page size. */
export function parseVmstatPagesBytes(vmstat: string, key: string, pageBytes = 4096): number | null {
  const m = new RegExp(`^${key} (\\d+)$`, "m").exec(vmstat);
  return m?.[1] !== undefined ? Number(m[1]) * pageBytes : null;
}

/**
 * The active choice of a sysfs multiple-choice file: "always [madvise] never" → "madvise",
 * "none [mq-deadline] kyber bfq" → "mq-deadline". A file with a single bare word (some
 * devices print just "none") is that word.
 */
export function parseBracketedChoice(text: string): string | null {
  const m = /\[([^\]\s]+)\]/.exec(text);
  if (m?.[1] !== undefined) return m[1];
  const words = text.trim().split(/\s+/).filter(Boolean);
  return words.length === 1 ? (words[0] ?? null) : null;
}

/**
 * Every assignment of an os-release(5) file: shell-like `KEY=value` lines, the value optionally
 * quoted (double quotes take backslash escapes). Comments and malformed lines are skipped; the
 * first assignment of a key wins, as a reader that stops at the first match would see it.
 */
export function parseOsReleaseFields(text: string): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const line of text.split("\n")) {
    const m = /^\s*([A-Z][A-Z0-9_]*)=(.*)$/.exec(line);
    if (m?.[1] === undefined || m[2] === undefined || m[1] in fields) continue;
    let value = m[2].trim();
    const q = value[0];
    if ((q === '"' || q === "'") && value.endsWith(q) && value.length >= 2) {
      value = value.slice(1, -1);
      if (q === '"') value = value.replace(/\\([\\"$`])/g, "$1");
    }
    fields[m[1]] = value;
  }
  return fields;
}

/** PRETTY_NAME from os-release(5), or null when absent or empty. */
export function parseOsReleasePrettyName(text: string): string | null {
  const value = parseOsReleaseFields(text).PRETTY_NAME;
  return value ? value : null;
}
