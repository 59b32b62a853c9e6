// What an iozone run says it did. Its report has throughputs per cell, not bytes or times, but
// each cell moves its whole file once (every process its own file in throughput mode), so the
// bytes follow from the cells it reports; the time is the run's own (iozone prints no clock).
import type { ProbeChecks } from "../core/probe";
import type { Measurement } from "../core/types";
import type { IozoneParams } from "./params";

const KIB = 1024;
const READS = new Set(["read", "reread", "random_read", "backward_read", "stride_read", "fread", "freread"]);
const WRITES = new Set(["write", "rewrite", "random_write", "record_rewrite", "fwrite", "frewrite"]);

function direction(m: Measurement): "read" | "write" | null {
  if (READS.has(m.metric)) return "read";
  if (WRITES.has(m.metric)) return "write";
  // Throughput mode: "throughput_initial_writers", "throughput_re_readers", "throughput_random_readers".
  if (m.metric.startsWith("throughput_")) return /read/.test(m.metric) ? "read" : /writ/.test(m.metric) ? "write" : null;
  return null;
}

function cellBytes(m: Measurement, p: IozoneParams): number {
  if (typeof m.dims.file_kib === "number") return m.dims.file_kib * KIB;
  const processes = typeof m.dims.processes === "number" ? m.dims.processes : p.processes;
  return processes * p.fileSizeMiB * KIB * KIB;
}

export const iozoneChecks: ProbeChecks<IozoneParams> = {
  claim(p, result) {
    let read = 0;
    let write = 0;
    for (const m of result.measurements) {
      if (m.unit !== "KiB/s") continue; // OPS mode (-O) says nothing of bytes
      const d = direction(m);
      if (d === "read") read += cellBytes(m, p);
      else if (d === "write") write += cellBytes(m, p);
    }
    if (read === 0 && write === 0) return null;
    const how = p.direct ? "with -I (O_DIRECT)" : "through the page cache (no -I)";
    return {
      tool: "iozone",
      measuredSeconds: null,
      read: read ? { bytes: read, direct: p.direct, how } : null,
      write: write ? { bytes: write, reachesDevice: p.direct, how } : null,
      threads: p.mode === "throughput" ? p.processes : 1,
    };
  },
};
