// Parsers of small text files from /proc, /sys and /etc.

/** MemTotal from /proc/meminfo (the kernel always prints it in kB = KiB) in bytes. */
export function parseMemTotalBytes(meminfo: string): number | null {
  const m = /^MemTotal:\s+(\d+)\s*kB\s*$/m.exec(meminfo);
  return m?.[1] !== undefined ? Number(m[1]) * 1024 : null;
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

/** PRETTY_NAME from os-release(5): shell-like assignment, value optionally quoted with escapes. */
export function parseOsReleasePrettyName(text: string): string | null {
  for (const line of text.split("\n")) {
    const m = /^\s*PRETTY_NAME=(.*)$/.exec(line);
    if (m?.[1] === undefined) continue;
    let value = m[1].trim();
    const q = value[0];
    if ((q === '"' || q === "'") && value.endsWith(q) && value.length >= 2) {
      value = value.slice(1, -1);
      if (q === '"') value = value.replace(/\\([\\"$`])/g, "$1");
    }
    return value.length > 0 ? value : null;
  }
  return null;
}
