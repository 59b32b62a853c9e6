import { guardProgress, makeProgress } from "../core/progress";
import { formatBytes, MiB } from "../core/text";
import type { Progress } from "../core/types";
import type { DdParams } from "./params";
import { lastTransfer, segments, type Transfer } from "./summary";

/**
 * status=progress redraws "N bytes (…) copied, T s, R MB/s" about once a second, so progress is
 * the last byte count of the requested size. With conv=fdatasync it reaches 100 % before dd exits:
 * the flush happens after the last block.
 */
export const extractDdProgress = guardProgress((output: string, params: DdParams): Progress | null => ddProgressAt(lastTransfer(segments(output)), params));

/** The bar at the newest transfer figure (none yet: 0 of the size). */
export function ddProgressAt(last: Transfer | null, params: DdParams): Progress {
  const total = params.sizeMiB * MiB;
  if (!last) return makeProgress(0, total, "B", `0 B of ${formatBytes(total)}`);
  const rate = last.rate > 0 ? `, ${last.rate} ${last.rateUnit}` : "";
  return makeProgress(last.bytes, total, "B", `${formatBytes(Math.min(last.bytes, total))} of ${formatBytes(total)}${rate}`);
}
