// What a fio run says it did: each direction's io_bytes and runtime from its JSON report.
import type { ProbeChecks } from "../core/probe";
import type { NormalisedResult } from "../core/types";
import type { FioParams } from "./params";
import { sniaFlags, sniaMeasuredSeconds } from "./snia/checks";

function sum(r: NormalisedResult, metric: string, direction: string): number | null {
  const ms = r.measurements.filter((m) => m.metric === metric && m.dims.direction === direction);
  return ms.length ? ms.reduce((a, m) => a + m.value, 0) : null;
}

const MIB = 1024 * 1024;

export const fioChecks: ProbeChecks<FioParams> = {
  claim(p, result) {
    // A job file's jobs each have their own direction, engine and files: no one claim to hold.
    if (p.jobFile !== undefined) return null;
    const read = sum(result, "io_bytes", "read");
    const write = sum(result, "io_bytes", "write");
    // Results parsed from fio's text report, or stored before io_bytes was kept, say no bytes.
    if (read === null && write === null) return null;
    const runtimes = result.measurements.filter((m) => m.metric === "runtime" && m.value > 0).map((m) => m.value / 1000);
    // A SNIA-style run's steps run one after another: its measured time is theirs added up.
    const measuredSeconds = !runtimes.length ? null : p.sniaRoundSec !== undefined ? sniaMeasuredSeconds(result) : Math.max(...runtimes);
    const how = p.direct ? "with direct=1" : "through the page cache (direct=0)";
    const reads = p.rw === "read" || p.rw === "randread" || p.rw === "randrw";
    return {
      tool: "fio",
      measuredSeconds,
      read: read ? { bytes: read, direct: p.direct, how } : null,
      // Without fsync options fio's direct=1 is what makes a write reach the device in time.
      write: write ? { bytes: write, reachesDevice: p.direct, how } : null,
      // fio lays out the file a read job reads, or a write job told to overwrite (one --filename
      // shared by the jobs), inside the run.
      // A SNIA-style run's precondition is in its io_bytes already (step "precondition").
      extraWriteBytes: p.sniaRoundSec === undefined && (reads || p.overwrite) ? p.sizeMiB * MIB : 0,
      threads: p.numjobs,
    };
  },
  flags: (p, result) => (p.sniaRoundSec === undefined ? [] : sniaFlags(result)),
};
