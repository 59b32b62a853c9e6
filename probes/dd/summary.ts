// Where dd's summary is in its output: after the records lines, not in a \r progress redraw.
// What a transfer line looks like for each dd implementation is in formats.ts.
import { transfersIn, type Transfer } from "./formats";

export { transfersIn, type Transfer };

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

/** "256+0 records in" and its translations ("256+0 Datensätze ein", zh_CN "记录了 256+0 的读入"). */
export const RECORDS_RE = /(?:^|\s)(\d+)\+(\d+)(?=\s|$)/;

/**
 * The summary dd prints last. After the records lines it is the first transfer line; without
 * records lines (grep'd logs) it is the last transfer line that is not a \r progress redraw.
 */
export function findSummary(segs: readonly Segment[]): Transfer | null {
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
export function lastTransfer(segs: readonly Segment[]): Transfer | null {
  for (let i = segs.length - 1; i >= 0; i--) {
    const all = transfersIn(segs[i]?.text ?? "");
    const last = all[all.length - 1];
    if (last) return last;
  }
  return null;
}
