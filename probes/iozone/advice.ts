import { pageCacheAdvice } from "../core/advice";
import type { AdviceContext } from "../core/probe";
import { formatBytes, MiB } from "../core/text";
import type { IozoneParams } from "./params";

/** Buffered iozone on a data set smaller than twice the RAM measures the page cache. */
export function iozoneAdvice(p: IozoneParams, { memTotalBytes: memTotal }: AdviceContext): string[] {
  if (p.direct) return [];
  const perFile = p.fileSizeMiB * MiB;
  const total = p.mode === "throughput" ? perFile * p.processes : perFile;
  if (memTotal !== undefined && total >= 2 * memTotal) return [];
  const what = p.mode === "throughput" ? `The iozone data set (${p.processes} files of ${formatBytes(perFile)})` : "The iozone file";
  return [pageCacheAdvice(what, total, memTotal, "enable direct I/O (-I)")];
}
