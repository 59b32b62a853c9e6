// fio's value syntax (HOWTO.rst, "Parameter types"): an int may start with 0x and end with a
// unit prefix (k, m, g, t, p; an optional i and b, case-insensitive); with kb_base=1024 (the
// default, and kb_base is not on the allow-list) "k" is 1024 and "ki" 1000. A time is an integer
// in seconds unless it ends with d, h, m, s, ms/msec or us/usec. Caps are checked against the
// larger reading of a prefix (1024), so no spelling slips past them.

const PREFIX: Record<string, number> = { "": 1, k: 1024, m: 1024 ** 2, g: 1024 ** 3, t: 1024 ** 4, p: 1024 ** 5 };

/** Bytes of one size value ("4k", "1GiB", "0x1000", "512"), or null when it is not one. */
export function sizeBytes(value: string): number | null {
  const v = value.trim();
  const hex = /^0x([0-9a-f]+)$/i.exec(v);
  if (hex) return parseInt(hex[1]!, 16);
  const m = /^(\d+(?:\.\d+)?)\s*([kmgtp]?)(i?)(b?)$/i.exec(v);
  if (!m) return null;
  return Math.ceil(Number(m[1]) * PREFIX[m[2]!.toLowerCase()]!);
}

/** The largest size in a range or list: "4k-64k", "4k:64k", "4k,8k" (read,write,trim; parts may be empty). */
export function maxSizeBytes(value: string): number | null {
  const parts = value.split(/[,:-]/).map((p) => p.trim());
  if (parts.every((p) => p === "")) return null;
  let max = 0;
  for (const p of parts) {
    if (p === "") continue;
    const b = sizeBytes(p);
    if (b === null) return null;
    max = Math.max(max, b);
  }
  return max;
}

const TIME: Record<string, number> = { "": 1, s: 1, m: 60, h: 3600, d: 86400, ms: 1e-3, msec: 1e-3, us: 1e-6, usec: 1e-6 };

/** Seconds of a time value ("30", "10m", "500ms"), or null when it is not one. `unit`: what a bare number means. */
export function timeSeconds(value: string, unit: "s" | "us" = "s"): number | null {
  const m = /^(\d+)\s*(d|h|m|s|ms|msec|us|usec)?$/i.exec(value.trim());
  if (!m) return null;
  const suffix = (m[2] ?? "").toLowerCase();
  if (suffix === "") return Number(m[1]) * (unit === "us" ? 1e-6 : 1);
  return Number(m[1]) * TIME[suffix]!;
}
