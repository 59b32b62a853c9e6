import { pageCacheAdvice } from "../core/advice";
import type { AdviceContext } from "../core/probe";
import { MiB } from "../core/text";
import type { FioParams } from "./params";

/** Buffered fio measures the page cache; a short run never reaches a steady state. */
export function fioAdvice(p: FioParams, { memTotalBytes }: AdviceContext): string[] {
  // A job file's jobs carry their own direct, size and runtime: the preset fields say nothing of them.
  if (p.jobFile !== undefined) return [];
  const out: string[] = [];
  const writesOnly = p.rw === "write" || p.rw === "randwrite";
  // Passes (no runtime) over a file fio drops from the cache before each (invalidate, its
  // default) read from the disk whatever the RAM; a time-based run rereads the cache after its
  // first pass.
  const coldPasses = (p.rw === "read" || p.rw === "randread") && p.runtimeSec === undefined && p.invalidate !== false;
  if (!p.direct && !coldPasses) out.push(pageCacheAdvice("The fio file", p.sizeMiB * MiB, memTotalBytes, "set direct=1", writesOnly ? "writes" : "both"));
  if (p.runtimeSec !== undefined && p.runtimeSec < 10) {
    out.push(`fio ran for only ${p.runtimeSec} s: use at least 30 s so that caches, queues and the drive settle into a steady state.`);
  }
  return out;
}
