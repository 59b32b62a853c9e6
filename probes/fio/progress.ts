import { guardProgress, makeProgress } from "../core/probe";
import type { Progress } from "../core/types";
import type { FioParams } from "./params";

// fio's ETA line, printed once a second with --eta=always beside the normal report:
// "Jobs: 1 (f=1): [m(1)][66.7%][r=11.3MiB/s,w=4928KiB/s][r=2897,w=1232 IOPS][eta 00m:02s]".
// The rate and IOPS brackets are absent while fio has no figures yet.
const ETA_RE = /Jobs:\s*\d+[^\r\n]*?\]\[(\d+(?:\.\d+)?)%\](?:\[(?!eta )([^\]\r\n]*?)\])?(?:\[[^\]\r\n]*?IOPS\])?(?:\[eta ([^\]\r\n]*)\])?/g;

/**
 * Progress from fio's ETA lines: its own percentage (of the runtime for time-based runs, of the
 * bytes otherwise), the current rate and the time left. Before the first one fio lays out its
 * file and starts; once the JSON report has arrived the run is finished.
 */
export const extractFioProgress = guardProgress((output: string, _params: FioParams): Progress | null => {
  if (output.includes('"fio version"')) return makeProgress(100, 100, "%", "finished, writing the report");
  let last: RegExpExecArray | null = null;
  for (const m of output.matchAll(ETA_RE)) last = m;
  if (!last) {
    if (/Laying out IO file/.test(output)) return makeProgress(0, 100, "%", "laying out the file");
    if (/^Starting \d+ (process|thread)/m.test(output)) return makeProgress(0, 100, "%", "starting");
    return null;
  }
  const percent = Math.min(100, Number(last[1]));
  if (!Number.isFinite(percent)) return null;
  const rate = last[2] ? `, ${last[2]}` : "";
  const eta = last[3] ? `, ETA ${last[3]}` : "";
  return makeProgress(percent, 100, "%", `${percent.toFixed(1)} %${rate}${eta}`);
});
