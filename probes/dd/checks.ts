// What a dd run says it did: its summary line's bytes and seconds, and the cache flags it ran with.
import type { ProbeChecks } from "../core/probe";
import type { NormalisedResult } from "../core/types";
import type { DdParams } from "./params";

const metric = (r: NormalisedResult, name: string) => r.measurements.find((m) => m.metric === name)?.value ?? null;

function writeHow(p: DdParams): string {
  if (p.direct && p.fdatasync) return "with oflag=direct and conv=fdatasync";
  if (p.direct) return "with oflag=direct";
  if (p.fdatasync) return "through the page cache with conv=fdatasync";
  return "through the page cache without conv=fdatasync";
}

export const ddChecks: ProbeChecks<DdParams> = {
  claim(p, result) {
    const bytes = metric(result, "bytes");
    if (bytes === null) return null;
    const measuredSeconds = metric(result, "seconds");
    const base = { tool: "dd", measuredSeconds, threads: 1 };
    if (p.mode === "read") {
      return { ...base, read: { bytes, direct: p.direct, how: p.direct ? "with iflag=direct" : "without iflag=direct" }, write: null };
    }
    // conv=fdatasync makes dd flush before it prints its summary, so the bytes are on the device
    // when its clock stops, as with oflag=direct.
    return { ...base, read: null, write: { bytes, reachesDevice: p.direct || p.fdatasync, how: writeHow(p) } };
  },
};
