import { parseLocaleNumber } from "../core/number";
import { INFINITY_WORDS, languageOfTransfer, PER_SECOND, SECONDS_UNITS } from "./vocabulary";

// The dd implementations people paste, and the transfer line each prints (after the
// "N+M records in/out" lines, which all of them share):
//   coreutils  268435456 bytes (268 MB, 256 MiB) copied, 1.2 s, 224 MB/s   (translated words,
//              decimal commas, "(268 MB)" before 8.24, no parentheses below 1000 B; the words of
//              every language are in vocabulary.ts, read from coreutils' own catalogs; some put
//              the verb first: " скопировано 2147483648 байт (2,1 GB), 4,17328 c, 515 MB/c")
//   coreutils 5.x  10485760 bytes transferred in 0.028418 seconds (368981986 bytes/sec)
//   busybox    16777216 bytes (16.0MB) copied, 0.006519 seconds, 2.4GB/s   (binary units)
//   toybox     10485760 bytes (10 M) copied, 0.034 s, 294 M/s               (binary, no "B")
//   BSD/macOS  1048576000 bytes transferred in 9.531306 secs (110014568 bytes/sec)
//   FreeBSD status=progress, redrawn with \r:
//              "  1073741824 bytes (1074 MB, 1024 MiB) transferred 1.001s, 1073 MB/s"

export type DdStyle = "coreutils" | "busybox" | "toybox" | "bsd";

export const STYLE_NAMES: Record<DdStyle, string> = {
  coreutils: "coreutils dd",
  busybox: "busybox dd",
  toybox: "toybox dd",
  bsd: "BSD/macOS dd",
};

export interface Transfer {
  bytes: number;
  seconds: number;
  rate: number;
  rateUnit: string;
  style: DdStyle;
  /** The line it was read from, to name the format. */
  line: string;
}

const NUM = String.raw`(\d[\d.,\u00a0\u202f]*(?:[eE][+-]?\d+)?)`;
const SEP = String.raw`\s*[,，、]\s*`;
const escape = (s: string) => s.replace(/[.*+?^${}()|[\]\\/]/g, "\\$&");
const alternatives = (words: readonly string[]) => `(?:${words.map(escape).join("|")})`;
// Seconds: "s" (coreutils, toybox, and their catalogs), "seconds" (busybox), older translations.
const SECONDS = String.raw`${alternatives(SECONDS_UNITS)}(?![\p{L}])`;
// Rate units: "MB/s", "MiB/s", "2.4GB/s" (busybox, no space), "M/s" (toybox), "B/s".
const PER_SECOND_RE = alternatives(PER_SECOND);
const RATE_UNIT = String.raw`([kKMGTPE]?i?B|[kKMGTPE])${PER_SECOND_RE}`;
// dd prints "Infinity B/s" (translated) when it measured no time.
const RATE = String.raw`(${NUM.slice(1, -1)}|${alternatives(INFINITY_WORDS)})`;
const TRANSFER_RE = new RegExp(String.raw`(\d+)(?!\d)[^\r\n]*?${SEP}${NUM}\s*${SECONDS}${SEP}${RATE}\s*${RATE_UNIT}`, "gu");
// The cheap test before the full pattern: a rate unit ("MB/s", "M/s", "MB/c") or BSD's "bytes/sec".
const RATE_ANCHOR_RE = new RegExp(`(?:B|[kKMGTPE])${PER_SECOND_RE}|bytes/sec`);
const BSD_RE = /(\d+) bytes transferred in (\d+(?:\.\d+)?) secs \((\d+) bytes\/sec\)/g;
// coreutils before 6.0 (named: no installed catalog holds it), decimal comma in some locales.
const COREUTILS5_RE = /(\d+) bytes transferred in (\d+(?:[.,]\d+)?) seconds \((\d+) bytes\/sec\)/g;
const FREEBSD_PROGRESS_RE = /(\d[\d,.'\u00a0]*) bytes \([^)]*\) transferred (\d+(?:\.\d+)?)s, (\d+(?:\.\d+)?) ([kMGTPE]?i?B)\/s/g;
const MAX_SEGMENT = 4096;

/** Which dd wrote a coreutils-shaped line: the units and the word for seconds tell them apart. */
function styleOf(line: string, rateUnit: string): DdStyle {
  if (/\bseconds\s*[,，]/.test(line) || /\(\d+(?:\.\d)?[kKMGTPE]B\)/.test(line)) return "busybox";
  if (!rateUnit.endsWith("B") || /\(\d+(?:\.\d)? [KMGTPE]\)/.test(line)) return "toybox";
  return "coreutils";
}

export function transfersIn(line: string): Transfer[] {
  // The rate unit is the cheap anchor: most lines have none, and the full pattern is costly.
  if (line.length > MAX_SEGMENT || !RATE_ANCHOR_RE.test(line)) return [];
  const out: Transfer[] = [];
  if (line.includes("transferred")) {
    for (const m of line.matchAll(BSD_RE)) {
      const bytes = Number(m[1]);
      const seconds = Number(m[2]);
      if (Number.isSafeInteger(bytes)) out.push({ bytes, seconds, rate: Number(m[3]), rateUnit: "B/s", style: "bsd", line });
    }
    for (const m of line.matchAll(FREEBSD_PROGRESS_RE)) {
      // %'ju groups thousands in the user's locale: "1,073,741,824".
      const bytes = Number((m[1] ?? "").replace(/[,.'\u00a0]/g, ""));
      if (Number.isSafeInteger(bytes)) out.push({ bytes, seconds: Number(m[2]), rate: Number(m[3]), rateUnit: `${m[4]}/s`, style: "bsd", line });
    }
    for (const m of line.matchAll(COREUTILS5_RE)) {
      const bytes = Number(m[1]);
      const seconds = parseLocaleNumber(m[2] ?? "");
      if (Number.isSafeInteger(bytes) && seconds !== null) out.push({ bytes, seconds, rate: Number(m[3]), rateUnit: "B/s", style: "coreutils", line });
    }
    if (out.length > 0) return out;
  }
  for (const m of line.matchAll(TRANSFER_RE)) {
    const bytes = Number(m[1]);
    const seconds = parseLocaleNumber(m[2] ?? "");
    const rate = INFINITY_WORDS.includes(m[3] ?? "") ? Infinity : parseLocaleNumber(m[3] ?? "");
    if (!Number.isSafeInteger(bytes) || seconds === null || rate === null) continue;
    const rateUnit = `${m[4] ?? "B"}/s`;
    out.push({ bytes, seconds, rate, rateUnit, style: styleOf(line, m[4] ?? "B"), line });
  }
  return out;
}

/**
 * The format named for the user: implementation, and for coreutils the generation (< 8.24 prints
 * one size in parentheses) and whether the words were translated.
 */
export function describeFormat(t: Transfer): string {
  const line = t.line;
  if (t.style !== "coreutils") return STYLE_NAMES[t.style];
  const traits: string[] = [];
  if (/ bytes transferred in .* seconds /.test(line)) return "coreutils dd (5.x)";
  if (/\(\s*[\d.,]+\s*[kMGTPE]?B\s*\)/.test(line)) traits.push("before 8.24");
  // The language whose catalog wording the line has; none: an older release's translation.
  const language = languageOfTransfer(line);
  if (language === null) traits.push("translated");
  else if (language !== "en") traits.push(`translated: ${language}`);
  return traits.length > 0 ? `coreutils dd (${traits.join(", ")})` : "coreutils dd";
}
