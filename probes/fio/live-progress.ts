// fio's live progress: the ETA lines folded one record at a time (progress.ts's scan); the
// per-second series come from the logs the agent appends after fio exits, so until the first
// appended file arrives there are none, and from then on (the run's last moment) they are read
// from the output the way the stored log is.
import { collectedFileMarker } from "../core/collected-files";
import { guarded, RecordSplitter, SeriesMemo, type LiveProgress } from "../core/live-progress";
import type { Progress } from "../core/types";
import type { FioParams } from "./params";
import { emptyFioScan, fioProgressOf, scanFio } from "./progress";
import { fioProgress } from "./view-series";

export function fioLiveProgress(_params: FioParams): LiveProgress {
  const split = new RecordSplitter();
  const memo = new SeriesMemo();
  let scan = emptyFioScan();
  let current: Progress | null = null;
  let output = "";
  let framed = false;
  return {
    append: (text) =>
      guarded(() => {
        output += text;
        for (const r of split.push(text)) {
          scan = scanFio(scan, r.text);
          framed ||= r.text.includes(collectedFileMarker);
        }
        current = fioProgressOf(scanFio(scan, split.tail));
        if (framed || split.tail.includes(collectedFileMarker)) memo.invalidate();
      }),
    current: () => current,
    series: () => memo.get(() => fioProgress(null, output)),
  };
}
