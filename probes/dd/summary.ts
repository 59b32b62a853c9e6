import { parseLocaleNumber } from "../core/number";

// dd's transfer line, in every coreutils generation and locale seen:
//   268435456 bytes (268 MB) copied, 1.2 s, 224 MB/s              (coreutils < 8.24)
//   268435456 bytes (268 MB, 256 MiB) copied, 1.2 s, 224 MB/s     (8.24+)
//   1000 bytes copied, 1.5383e-05 s, 65.0 MB/s                    (no parentheses below 1000 B)
//   268435456 Bytes (268 MB, 256 MiB) kopiert, 1,2 s, 224 MB/s    (de_DE)
// Only the numbers and their order are relied on: the words are translated, the separators may
// be decimal commas or no-break spaces. status=progress prints the same shape after a \r.
const NUM = String.raw`(\d[\d.,\u00a0\u202f]*(?:[eE][+-]?\d+)?)`;
const SEP = String.raw`\s*[,，、]\s*`;
const TRANSFER_RE = new RegExp(
  String.raw`(\d+)(?!\d)[^\r\n]*?${SEP}${NUM}\s*(?:s|с|秒)${SEP}${NUM}\s*([kKMGTPE]?i?B)\/s`,
  "gu",
);
const MAX_SEGMENT = 4096;

export interface Transfer {
  bytes: number;
  seconds: number;
  rate: number;
  rateUnit: string;
}

export interface Segment {
  text: string;
  /** "\r" before it: a status=progress redraw. */
  afterCR: boolean;
  terminator: "\n" | "\r" | "";
}

export function segments(text: string): Segment[] {
  const out: Segment[] = [];
  const re = /([^\r\n]*)(\r\n|\r|\n|$)/g;
  let previous = "";
  let m: RegExpExecArray | null;
  while ((m = re.exec(text)) !== null) {
    const terminator = m[2] === "\r" ? "\r" : m[2] === "" ? "" : "\n";
    out.push({ text: m[1] ?? "", afterCR: previous === "\r", terminator });
    previous = terminator;
    if (m[2] === "") break;
  }
  return out;
}

export function transfersIn(line: string): Transfer[] {
  // The rate unit is the cheap anchor: most lines have none, and the full pattern is costly.
  if (line.length > MAX_SEGMENT || !/B\/s/.test(line)) return [];
  const out: Transfer[] = [];
  for (const m of line.matchAll(TRANSFER_RE)) {
    const bytes = Number(m[1]);
    const seconds = parseLocaleNumber(m[2] ?? "");
    const rate = parseLocaleNumber(m[3] ?? "");
    if (!Number.isSafeInteger(bytes) || seconds === null || rate === null) continue;
    out.push({ bytes, seconds, rate, rateUnit: `${m[4] ?? "B"}/s` });
  }
  return out;
}

/** "256+0 records in" and its translations ("256+0 Datensätze ein"). */
export const RECORDS_RE = /^\s*(\d+)\+(\d+)\s+\S/;

/**
 * The summary dd prints last. After the records lines it is the first transfer line; without
 * records lines (grep'd logs) it is the last transfer line that is not a \r progress redraw.
 */
export function findSummary(segs: Segment[]): Transfer | null {
  let lastRecords = -1;
  segs.forEach((s, i) => {
    if (RECORDS_RE.test(s.text)) lastRecords = i;
  });
  if (lastRecords >= 0) {
    for (const s of segs.slice(lastRecords + 1)) {
      const first = transfersIn(s.text)[0];
      if (first) return first;
    }
    return null;
  }
  let found: Transfer | null = null;
  for (const s of segs) {
    if (s.afterCR || s.terminator === "\r") continue;
    const all = transfersIn(s.text);
    found = all[all.length - 1] ?? found;
  }
  return found;
}

/** The most recent transfer figure, progress redraws included, for live progress. */
export function lastTransfer(segs: Segment[]): Transfer | null {
  for (let i = segs.length - 1; i >= 0; i--) {
    const all = transfersIn(segs[i]?.text ?? "");
    const last = all[all.length - 1];
    if (last) return last;
  }
  return null;
}
