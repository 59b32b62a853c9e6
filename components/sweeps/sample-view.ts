// A hand-made sweep for the components' tests: an NVMe-like randread over QD 1, 4, 16 × 1, 2, 4
// jobs, IOPS flattening past QD 16 × 4 while p99 climbs; one point invalid, one still running.
import type { SweepPointResult, SweepView } from "@/lib/sweeps/types";

const QD = [1, 4, 16];
const JOBS = [1, 2, 4];

function point(iodepth: number, numjobs: number, order: number): SweepPointResult {
  const load = iodepth * numjobs;
  const iops = Math.round(95_000 * (1 - Math.exp(-load / 10)));
  const p99 = Math.round(80_000 * Math.max(1, load / 8) ** 1.3);
  return {
    iodepth,
    numjobs,
    blockSizeKiB: 4,
    order,
    runId: `00000000-0000-4000-8000-${String(order + 1).padStart(12, "0")}`,
    status: "done",
    problem: null,
    iops,
    bandwidthBps: iops * 4096,
    latP50Ns: Math.round(p99 / 3),
    latP99Ns: p99,
    latP999Ns: p99 * 4,
    runtimeSec: 20,
    steady: { enabled: true, reached: true, afterSec: 12 },
  };
}

export function sampleSweep(): SweepView {
  const order = [0, 4, 8, 1, 5, 6, 2, 3, 7];
  const points = QD.flatMap((qd, i) => JOBS.map((nj, j) => point(qd, nj, order[i * 3 + j]!)));
  const invalid = points.find((p) => p.iodepth === 4 && p.numjobs === 1)!;
  Object.assign(invalid, { status: "invalid", problem: "Too short to count (< 5 s)" });
  const running = points.find((p) => p.iodepth === 16 && p.numjobs === 4)!;
  Object.assign(running, { status: "running", iops: null, bandwidthBps: null, latP50Ns: null, latP99Ns: null, latP999Ns: null, runtimeSec: null, steady: { enabled: true, reached: null, afterSec: null } });
  return {
    experimentId: "00000000-0000-4000-8000-0000000000aa",
    title: "nvme0 randread sweep",
    hostLabel: "db-1",
    target: "/srv/bench",
    fsType: "xfs",
    fioVersion: "fio-3.33",
    workload: { rw: "randread", rwmixread: null, ioengine: "libaio", direct: true, sizeMiB: 1024, pointRuntimeSec: 30, steadyState: { metric: "iops", limitPercent: 5, windowSec: 10, rampSec: 2 } },
    grid: { iodepths: QD, numjobs: JOBS, blockSizesKiB: [4] },
    points,
    saturation: {
      rule: "the smallest load beyond which IOPS grow by less than 5 % while p99 latency grows by more than 50 %",
      point: { iodepth: 16, numjobs: 2, blockSizeKiB: 4 },
      iops: 90_000,
      latP99Ns: 1_900_000,
      sentence: "This device saturates at QD 16 × 2 jobs: 90 k IOPS at p99 1.9 ms.",
      perCurve: [
        { numjobs: 1, blockSizeKiB: 4, iodepth: null },
        { numjobs: 2, blockSizeKiB: 4, iodepth: 16 },
        { numjobs: 4, blockSizeKiB: 4, iodepth: 4 },
      ],
    },
    status: "RUNNING",
    createdAt: "2026-11-28T10:00:00.000Z",
    finishedAt: null,
  };
}
