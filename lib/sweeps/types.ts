// The shape a sweep experiment is read in: produced by lib/server/sweeps (one reader), drawn by
// components/sweeps, exported and shared from the same object. A sweep runs one fio workload over
// a grid of iodepth × numjobs (× block size) on one target, each point a time-based fio run that
// fio's steadystate may end early.

/** fio's steady-state criterion (fio's steadystate=, steadystate_duration=, steadystate_ramp_time=). */
export interface SteadyStateSpec {
  metric: "iops" | "iops_slope" | "bw" | "bw_slope";
  /** The limit in percent of the mean (fio's "iops:5%"). */
  limitPercent: number;
  /** The window fio checks, seconds (steadystate_duration). */
  windowSec: number;
  /** Seconds before fio starts collecting (steadystate_ramp_time). */
  rampSec: number;
}

export interface SweepGrid {
  iodepths: number[];
  numjobs: number[];
  /** One entry when the block size is not swept. */
  blockSizesKiB: number[];
}

/** A grid point: the fio parameters that differ from the workload's. */
export interface SweepPointKey {
  iodepth: number;
  numjobs: number;
  blockSizeKiB: number;
}

export type SweepPointStatus = "pending" | "running" | "done" | "failed" | "cancelled" | "invalid";

export interface SweepPointResult extends SweepPointKey {
  /** When the point ran among the others (0-based); points run interleaved, not in grid order. */
  order: number;
  runId: string | null;
  status: SweepPointStatus;
  /** Why a point is failed, cancelled or invalid (the run's error or its checks' titles); null otherwise. */
  problem: string | null;
  /** Reads and writes together (a mixed workload's total). */
  iops: number | null;
  /** Reads and writes together, bytes per second. */
  bandwidthBps: number | null;
  /** Completion latency over all I/O of the point, nanoseconds. */
  latP50Ns: number | null;
  latP99Ns: number | null;
  latP999Ns: number | null;
  /** How long fio ran the point, seconds. */
  runtimeSec: number | null;
  steady: {
    enabled: boolean;
    /** fio said the criterion was attained; null while not known (not enabled, not finished). */
    reached: boolean | null;
    /** Seconds from the point's start (ramp included) until fio ended it as steady. */
    afterSec: number | null;
  };
}

export interface SweepWorkload {
  rw: "read" | "write" | "randread" | "randwrite" | "randrw";
  rwmixread: number | null;
  ioengine: "psync" | "libaio" | "io_uring";
  direct: boolean;
  sizeMiB: number;
  /** Each point's time limit, seconds (it ends sooner when steady). */
  pointRuntimeSec: number;
  steadyState: SteadyStateSpec | null;
}

export interface SweepView {
  experimentId: string;
  title: string;
  /** null when hidden (a share link whose sharer left host details out). */
  hostLabel: string | null;
  target: string | null;
  fsType: string | null;
  /** fio's version as the host reported it ("fio-3.33"); shown on every chart. */
  fioVersion: string | null;
  workload: SweepWorkload;
  grid: SweepGrid;
  /** Every grid point, in grid order (iodepth, then numjobs, then block size, ascending). */
  points: SweepPointResult[];
  /** Computed from the done, valid points (lib/sweeps/saturation.ts); null while no point has a result (done or invalid). */
  saturation: SweepSaturation | null;
  status: "RUNNING" | "FINISHED" | "FAILED" | "CANCELLED";
  createdAt: string;
  finishedAt: string | null;
}

/** Where more load stops buying throughput and starts costing latency. */
export interface SweepSaturation {
  /** The rule, as stated to users (thresholds included). */
  rule: string;
  /** The saturation point over the whole grid; null when no point meets the rule within the grid. */
  point: SweepPointKey | null;
  iops: number | null;
  latP99Ns: number | null;
  /** "This device saturates at QD 16 × 4 jobs: 92 k IOPS at p99 1.9 ms", or why none was found. */
  sentence: string;
  /** Along each curve (a job count at a block size): the iodepth where it saturates, null if none. */
  perCurve: { numjobs: number; blockSizeKiB: number; iodepth: number | null }[];
}
