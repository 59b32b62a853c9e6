// A result checked against what the machine did: each flag says which check failed, the
// evidence read from the run's own telemetry (or its duration), and the guide section that
// explains why such a number does not measure what it claims.

export interface RunCheck {
  /** Stable id: "cache-served-read", "write-not-on-device", "too-short", "too-few-samples", "device-busy-elsewhere", "cpu-busy-elsewhere", … */
  code: string;
  title: string;
  /** One or two sentences with the figures that decided it ("the device read 0.2 MiB while dd read 1,024 MiB"). */
  evidence: string;
  guide: { slug: string; section: string; href: string } | null;
}

/**
 * What one run of a probe says it did, from its parameters and its own result: the figures the
 * run's telemetry is held against. Each benchmark declares how to read it
 * (`ProbeDefinition.checks`, probes/<tool>/checks.ts); the flags themselves are shared
 * (probes/checks/index.ts), so every probe is judged by the same thresholds.
 */
export interface ProbeClaim {
  /** The tool's name in a sentence: "dd", "fio", "iozone". */
  tool: string;
  /** Seconds the tool itself timed (dd's copy, fio's runtime); null: the run's duration stands in. */
  measuredSeconds: number | null;
  /** Bytes the tool read, and whether they had to come from the device (O_DIRECT). */
  read: { bytes: number; direct: boolean; how: string } | null;
  /**
   * Bytes the tool wrote, and whether they had to reach the device before the clock stopped
   * (O_DIRECT, fdatasync/fsync/O_DSYNC).
   */
  write: { bytes: number; reachesDevice: boolean; how: string } | null;
  /**
   * Device writes the run causes besides its measured writes (fio lays out the file a read job
   * reads, inside the run): counted as accounted for, never as the measured bytes.
   */
  extraWriteBytes?: number;
  /** How many threads or processes the tool runs at most (dd: 1, fio: numjobs). */
  threads: number;
}

/** The run's target and host, from its profile snapshot. */
export interface CheckFacts {
  /** The target's file system type ("ext4", "tmpfs"), or null when the profile had none. */
  fsType: string | null;
  memTotalBytes: number | null;
  /** Logical CPUs of the host, or null when the profile had none. */
  cpuCount: number | null;
  /**
   * The target's device serves this run alone: a lab volume the agent made for it (a loop device
   * over its private image, or a --lab-device no file system of the host is on). Whatever that
   * device moved beyond the probe's own bytes is the file system's own work for the probe (its
   * journal, metadata, a sync mount's commits), never another workload's.
   */
  exclusiveDevice?: boolean;
}
