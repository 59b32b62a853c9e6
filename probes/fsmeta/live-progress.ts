// fsmeta's live progress: fio's ETA lines folded one record at a time (progress.ts's scan).
// fsmeta draws no series over time.
import { guarded, NO_SERIES, RecordSplitter, type LiveProgress } from "../core/live-progress";
import type { Progress } from "../core/types";
import type { FsmetaParams } from "./params";
import { emptyFsmetaScan, fsmetaProgressOf, scanFsmeta } from "./progress";

export function fsmetaLiveProgress(params: FsmetaParams): LiveProgress {
  const split = new RecordSplitter();
  let scan = emptyFsmetaScan();
  let current: Progress | null = fsmetaProgressOf(scan, params);
  return {
    append: (text) =>
      guarded(() => {
        for (const r of split.push(text)) scan = scanFsmeta(scan, r.text);
        current = fsmetaProgressOf(scanFsmeta(scan, split.tail), params);
      }),
    current: () => current,
    series: () => NO_SERIES,
  };
}
