// Advice about how a run was set up, shown next to its results: what makes the numbers
// misleading and what to change. Pure: the caller supplies the host facts it knows.
import { getProbe, type ProbeParamsById } from "./catalog";
import { formatBytes, MiB } from "./core/text";
import type { NormalisedResult } from "./core/types";
import type { HostProfile, SnapshotTarget } from "./profile/types";

export interface QualityInput {
  probe: string;
  /** Stored parameters; validated here again, invalid ones yield no advice. */
  params: unknown;
  result?: NormalisedResult | null;
  /** What the advice needs of the run's profile snapshot (profile/read-profile.ts reads it); a RunProfileSnapshot will do. */
  profile?: { memory: Pick<HostProfile["memory"], "totalBytes">; target: Pick<SnapshotTarget, "fsType"> | null } | null;
  /** How many runs of this configuration exist (the run itself included). */
  repeats?: number;
}

const RAM_FS = new Set(["tmpfs", "ramfs"]);

function pageCacheAdvice(what: string, writtenBytes: number, memTotal: number | undefined, fix: string): string {
  if (memTotal === undefined || memTotal <= 0) {
    return `${what} runs through the page cache and this host's RAM size is unknown: make it at least twice the RAM, or ${fix}, so that reads come from the disk and not from memory.`;
  }
  const needed = 2 * memTotal;
  const factor = Math.ceil(needed / Math.max(writtenBytes, 1));
  return `${what} (${formatBytes(writtenBytes)}) is smaller than twice this host's RAM (2 × ${formatBytes(memTotal)} = ${formatBytes(needed)}) and goes through the page cache: reads are largely served from memory and look faster than the disk. Grow it to at least ${formatBytes(needed)} (about ${factor}× larger) or ${fix}.`;
}

function iozoneAdvice(p: ProbeParamsById["iozone"], memTotal: number | undefined): string[] {
  if (p.direct) return [];
  const perFile = p.fileSizeMiB * MiB;
  const total = p.mode === "throughput" ? perFile * p.processes : perFile;
  if (memTotal !== undefined && total >= 2 * memTotal) return [];
  const what = p.mode === "throughput" ? `The iozone data set (${p.processes} files of ${formatBytes(perFile)})` : "The iozone file";
  return [pageCacheAdvice(what, total, memTotal, "enable direct I/O (-I)")];
}

function ddAdvice(p: ProbeParamsById["dd"]): string[] {
  const out: string[] = [];
  if (p.mode === "read") {
    if (!p.direct) {
      out.push("dd read without iflag=direct: a file that was just written is read back from the page cache, not the disk. Use iflag=direct (read-direct) or drop the caches first.");
    }
    return out;
  }
  if (!p.direct && !p.fdatasync) {
    out.push("dd wrote without oflag=direct and without conv=fdatasync: it stopped the clock while the data was still in the page cache, so the rate shows memory speed. Use write-direct, or at least conv=fdatasync (write-buffered).");
  } else if (!p.direct) {
    out.push("dd wrote through the page cache (no oflag=direct): conv=fdatasync keeps the total honest, but the rate mixes cache and disk. Use oflag=direct (write-direct) for the disk's own rate.");
  } else if (!p.fdatasync) {
    out.push("dd wrote with oflag=direct but without conv=fdatasync: the drive's own write cache may still hold the last blocks when the clock stops. Add conv=fdatasync.");
  }
  return out;
}

function sarAdvice(p: ProbeParamsById["sar"], result: NormalisedResult | null | undefined): string[] {
  const out: string[] = [];
  if (p.interval > 10) {
    out.push(`sar sampled every ${p.interval} s: bursts shorter than that are averaged away. Use an interval of 1–5 s while a benchmark runs.`);
  }
  if (p.count < 3) {
    out.push(`sar took only ${p.count} sample${p.count === 1 ? "" : "s"}: use at least 3 (better 10 or more) to tell a trend from noise.`);
  }
  if (result) {
    const times = new Set(result.measurements.map((m) => m.dims.time).filter((t) => t !== "average"));
    if (times.size > 0 && times.size < p.count) out.push(`sar stopped after ${times.size} of ${p.count} samples: the run was cut short.`);
  }
  return out;
}

function fioAdvice(p: ProbeParamsById["fio"], memTotal: number | undefined): string[] {
  const out: string[] = [];
  if (!p.direct) out.push(pageCacheAdvice("The fio file", p.sizeMiB * MiB, memTotal, "set direct=1"));
  if (p.runtimeSec !== undefined && p.runtimeSec < 10) {
    out.push(`fio ran for only ${p.runtimeSec} s: use at least 30 s so that caches, queues and the drive settle into a steady state.`);
  }
  return out;
}

export function qualityWarnings(input: QualityInput): string[] {
  const probe = getProbe(input.probe);
  if (!probe) return [];
  const parsed = probe.paramsSchema.safeParse(input.params);
  if (!parsed.success) return [];
  const memTotal = input.profile?.memory.totalBytes ?? undefined;
  const fsType = input.profile?.target?.fsType;
  const out: string[] = [];

  if (probe.id !== "sar" && fsType && RAM_FS.has(fsType)) {
    out.push(`The target is on ${fsType}, which lives in RAM: the results measure memory, not a disk.`);
  }
  switch (probe.id) {
    case "iozone":
      out.push(...iozoneAdvice(parsed.data as ProbeParamsById["iozone"], memTotal));
      break;
    case "dd":
      out.push(...ddAdvice(parsed.data as ProbeParamsById["dd"]));
      break;
    case "sar":
      out.push(...sarAdvice(parsed.data as ProbeParamsById["sar"], input.result));
      break;
    case "fio":
      out.push(...fioAdvice(parsed.data as ProbeParamsById["fio"], memTotal));
      break;
  }
  // sar observes; the benchmarks measure, and one measurement says nothing about its spread.
  const repeats = input.repeats ?? 1;
  if (probe.id !== "sar" && repeats < 3) {
    out.push(
      repeats <= 1
        ? "This is a single run: repeat it 3–5 times and compare the spread before drawing conclusions."
        : `Only ${repeats} runs of this configuration: repeat it 3–5 times and compare the spread before drawing conclusions.`,
    );
  }
  return out;
}
