// dd's live progress, one record at a time: the bar is the latest transfer line (status=progress
// redraws about once a second), the series are built from the few records that carry a transfer
// or the "records in/out" lines, so nothing is read twice.
import { guarded, RecordSplitter, SeriesMemo, type LiveProgress } from "../core/live-progress";
import type { Progress } from "../core/types";
import type { DdParams } from "./params";
import { ddProgressAt } from "./progress";
import { ddProgressOf } from "./progress-series";
import { RECORDS_RE, transfersIn, type Segment, type Transfer } from "./summary";

export function ddLiveProgress(params: DdParams): LiveProgress {
  const split = new RecordSplitter();
  const memo = new SeriesMemo();
  /** Records with a transfer or a records line, as segments (the others change nothing). */
  const kept: Segment[] = [];
  let lastTerminator: "\n" | "\r" | "" = "";
  let lastTransfer: Transfer | null = null;
  let tailSeg: Segment | null = null;
  let current: Progress | null = ddProgressAt(null, params);

  const step = (text: string) => {
    for (const r of split.push(text)) {
      const transfers = transfersIn(r.text);
      if (transfers.length > 0 || RECORDS_RE.test(r.text)) {
        kept.push({ text: r.text, afterCR: lastTerminator === "\r", terminator: r.terminator });
        memo.invalidate();
      }
      lastTransfer = transfers.at(-1) ?? lastTransfer;
      lastTerminator = r.terminator;
    }
    // The unfinished record as the whole-log reader sees it: a held \r already ends it.
    const tail = split.tail;
    const tailTransfer = transfersIn(tail).at(-1) ?? null;
    const nextTail: Segment | null = tailTransfer || RECORDS_RE.test(tail) ? { text: tail, afterCR: lastTerminator === "\r", terminator: split.tailEndsWithCR ? "\r" : "" } : null;
    if (tailSeg?.text !== nextTail?.text || tailSeg?.terminator !== nextTail?.terminator || tailSeg?.afterCR !== nextTail?.afterCR) memo.invalidate();
    tailSeg = nextTail;
    current = ddProgressAt(tailTransfer ?? lastTransfer, params);
  };

  return {
    append: (text) => guarded(() => step(text)),
    current: () => current,
    series: () => memo.get(() => ddProgressOf(tailSeg ? [...kept, tailSeg] : kept)),
  };
}
