import { guardProgress, makeProgress } from "../core/probe";
import type { Progress } from "../core/types";
import type { FioParams } from "./params";

// fio's ETA line: "Jobs: 1 (f=1): [r(1)][75.0%][r=71.5MiB/s][r=18.3k IOPS][eta 00m:01s]".
const ETA_RE = /Jobs:\s*\d+[^\r\n]*?\]\[(\d+(?:\.\d+)?)%\](?:\[([^\]\r\n]*)\])?/g;

/**
 * The command keeps JSON on stdout, and fio 3.33 then prints no ETA lines at all, so live runs
 * normally return null. ETA lines are still read when present (e.g. fio run with --eta=always
 * and --output=FILE), which is cheap and keeps the extractor useful for such outputs.
 */
export const extractFioProgress = guardProgress((output: string, _params: FioParams): Progress | null => {
  let last: RegExpExecArray | null = null;
  for (const m of output.matchAll(ETA_RE)) last = m;
  if (!last) return null;
  const percent = Math.min(100, Number(last[1]));
  if (!Number.isFinite(percent)) return null;
  const rate = last[2] ? `, ${last[2]}` : "";
  return makeProgress(percent, 100, "%", `${percent.toFixed(1)} %${rate}`);
});
