// The checks every benchmark shares, whatever its tool: how long the measured part lasted, how
// many telemetry samples saw it, and whether the CPUs were busy with someone else's work.
import type { TelemetrySample } from "../telemetry/types";
import { CHECK_GUIDES } from "./guides";
import { seconds } from "./telemetry-totals";
import type { RunCheck } from "./types";

/** Below this a run is start-up, cache warm-up and timer resolution as much as steady state. */
export const MIN_MEASURED_SECONDS = 5;
/** Fewer samples than this cannot show a trend, a plateau or a disturbance. */
export const MIN_SAMPLES = 3;

export function tooShort(tool: string, measuredSeconds: number | null, durationSeconds: number | null): RunCheck | null {
  const s = measuredSeconds ?? durationSeconds;
  if (s === null || !Number.isFinite(s) || s >= MIN_MEASURED_SECONDS) return null;
  const what = measuredSeconds !== null ? `${tool} timed ${seconds(s)} of work` : `the run lasted ${seconds(s)}`;
  return {
    code: "too-short",
    title: "Too short to be a measurement",
    evidence: `${what}, less than the ${MIN_MEASURED_SECONDS} s a measurement needs: at that length start-up and caches weigh as much as the steady state. Make the run longer (more data or a runtime).`,
    guide: CHECK_GUIDES.tooShort,
  };
}

export function tooFewSamples(samples: readonly TelemetrySample[]): RunCheck | null {
  if (samples.length === 0 || samples.length >= MIN_SAMPLES) return null;
  return {
    code: "too-few-samples",
    title: "Too few telemetry samples",
    evidence: `the agent recorded ${samples.length} telemetry sample${samples.length === 1 ? "" : "s"} (one a second) during the run, fewer than ${MIN_SAMPLES}: too few to see what the machine did while it measured.`,
    guide: CHECK_GUIDES.tooShort,
  };
}

/** Share of the CPUs the probe cannot be using that must be busy, and in how many samples. */
const OTHERS_BUSY = 0.9;
const SAMPLE_SHARE = 0.8;

/**
 * Another workload kept the CPUs busy. Telemetry has whole-machine CPU shares only (% of all
 * CPUs, /proc/stat), not the probe's own, so the rule gives the probe every CPU it could use:
 * `threads` CPUs (dd and iozone's auto mode 1, fio numjobs), whatever their mix of user and system
 * time. It flags a sample when the CPUs left over are ≥ 90 % busy (user + system + steal; iowait
 * is idle time while some I/O is pending, not work, and a probe's own waiting shows there), and
 * the run when ≥ 80 % of its samples (at least 3) are such.
 * Limits: the kernel does part of a probe's work on other CPUs (write-back flushers, I/O
 * completions, reclaim), and the agent and the server's ingest run too. A write through the page
 * cache is given one more thread for its flusher (index.ts), so a buffered writer on a 2-CPU host
 * is not judged. A probe with as many threads as the host
 * has CPUs, or a host whose CPU count the profile lacks, is never judged. It says the CPUs were
 * contended, not by how much the figure suffered: a device-bound run (O_DIRECT on a disk) loses
 * little to a busy neighbour, a memory-bound one (tmpfs, page cache) a lot.
 */
export function cpuBusyElsewhere(tool: string, threads: number, cpuCount: number | null, samples: readonly TelemetrySample[]): RunCheck | null {
  if (!cpuCount || cpuCount < 2 || threads >= cpuCount || samples.length < MIN_SAMPLES) return null;
  const probeShare = (100 * threads) / cpuCount;
  const limit = probeShare + OTHERS_BUSY * (100 - probeShare);
  const busy = samples.map((s) => s.cpu.usr + s.cpu.sys + s.cpu.steal);
  const over = busy.filter((b) => b >= limit).length;
  if (over < SAMPLE_SHARE * samples.length) return null;
  const mean = busy.reduce((a, b) => a + b, 0) / busy.length;
  return {
    code: "cpu-busy-elsewhere",
    title: "The CPUs were busy with other work",
    evidence: `the CPUs were ${Math.round(mean)} % busy on average (user + system + steal, ${over} of ${samples.length} samples at or above ${Math.round(limit)} %), while ${tool} with ${threads} thread${threads === 1 ? "" : "s"} can use at most ${Math.round(probeShare)} % of this host's ${cpuCount} CPUs: another workload competed with the run.`,
    guide: CHECK_GUIDES.cpuBusy,
  };
}
