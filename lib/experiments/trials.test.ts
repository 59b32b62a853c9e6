import { describe, expect, it } from "vitest";
import { TUNABLE_TRIALS } from "@/content/experiment-start-points";
import { validateParams } from "../../probes/catalog";
import { dirtyThresholds, planTrial, type TrialHost } from "./trials";

const GiB = 2 ** 30;
const MiB = 2 ** 20;

function host(over: Partial<Omit<TrialHost, "target">> & { target?: Partial<NonNullable<TrialHost["target"]>> | null } = {}): TrialHost {
  const { target, ...rest } = over;
  return {
    name: "h",
    memTotalBytes: 24 * GiB,
    dirtyableBytes: 22 * GiB,
    settings: { "vm.dirty_ratio": "20", "vm.dirty_background_ratio": "10", "vm.dirty_bytes": "0", "vm.dirty_background_bytes": "0" },
    numaNodes: 1,
    freeBytesPerNode: { "0": 17 * GiB },
    dropCachesAllowed: true,
    ...rest,
    target:
      target === null
        ? null
        : { path: "/srv/t", fsType: "ext4", medium: "disk", device: "vda", freeBytes: 70 * GiB, queue: { "queue/scheduler": "mq-deadline", "queue/nr_requests": "256", "queue/read_ahead_kb": "128" }, hwQueueDepth: null, ...target },
  };
}

const HOSTS: Record<string, TrialHost> = {
  "small VM, 2 GiB": host({ memTotalBytes: 2 * GiB, dirtyableBytes: 1.5 * GiB, freeBytesPerNode: { "0": 1.2 * GiB }, target: { freeBytes: 20 * GiB } }),
  "24 GiB, one node": host(),
  "256 GiB, two nodes": host({ memTotalBytes: 256 * GiB, dirtyableBytes: 240 * GiB, numaNodes: 2, freeBytesPerNode: { "0": 100 * GiB, "1": 120 * GiB }, target: { freeBytes: 2000 * GiB } }),
  NVMe: host({ target: { device: "nvme0n1", medium: "ssd", freeBytes: 500 * GiB, queue: { "queue/scheduler": "none", "queue/nr_requests": "1023" }, hwQueueDepth: 1023 } }),
  "tmpfs target": host({ target: { fsType: "tmpfs", medium: "memory", device: null, freeBytes: 12 * GiB, queue: {} } }),
};

describe("trials: every offered trial can show a difference", () => {
  for (const [label, h] of Object.entries(HOSTS)) {
    it(label, () => {
      for (const tunable of Object.keys(TUNABLE_TRIALS)) {
        const o = planTrial(tunable, h);
        if (!o.offered) {
          expect(o.reason.length, tunable).toBeGreaterThan(20);
          continue;
        }
        expect(new Set(o.values).size, tunable).toBeGreaterThanOrEqual(2);
        const v = validateParams(o.probe, { ...o.params, target: h.target!.path });
        expect(v.ok, `${tunable} ${JSON.stringify(v)}`).toBe(true);
        const p = o.params as { sizeMiB: number; iodepth: number; numjobs: number; direct: boolean; runtimeSec?: number; blockSizeKiB: number; rw: string };
        expect(p.sizeMiB * MiB, tunable).toBeLessThanOrEqual(h.target!.freeBytes! - 64 * MiB);
        if (tunable === "vm.dirty_ratio" || tunable === "vm.dirty_background_ratio") {
          const other = tunable === "vm.dirty_ratio" ? { bgRatio: 10 } : { ratio: 20 };
          const arms = o.values.map((x) => dirtyThresholds(h.dirtyableBytes!, { ratio: 20, bgRatio: 10, ...other, [tunable === "vm.dirty_ratio" ? "ratio" : "bgRatio"]: Number(x), bytes: 0, bgBytes: 0 }));
          const size = p.sizeMiB * MiB;
          expect(p.direct).toBe(false);
          // Long enough to be a measurement (probes/checks/generic.ts MIN_MEASURED_SECONDS).
          expect(p.runtimeSec).toBeGreaterThanOrEqual(6);
          expect(p.blockSizeKiB).toBe(4096);
          // Laid out and kept cached: no page allocation inside the timing.
          expect(o.params).toMatchObject({ overwrite: true, invalidate: false });
          if (tunable === "vm.dirty_ratio") {
            // Above the low arm's limit (paused) and below the high arm's freerun point (never paused).
            expect(size).toBeGreaterThan(Math.min(...arms.map((a) => a.limit)));
            expect(size).toBeLessThan(Math.max(...arms.map((a) => a.freerun)));
          } else {
            expect(size).toBeGreaterThan(Math.min(...arms.map((a) => a.freerun)));
            expect(size).toBeLessThan(Math.max(...arms.map((a) => a.freerun)));
          }
        }
        if (tunable === "vm.zone_reclaim_mode") {
          const free = Object.values(h.freeBytesPerNode!);
          expect(p.sizeMiB * MiB).toBeGreaterThan(h.freeBytesPerNode!["0"]!);
          expect(p.sizeMiB * MiB).toBeLessThan(free.reduce((a, b) => a + b, 0));
          expect(o.values[0]).toBe("0");
          expect(o.risk).toMatch(/latency/);
          expect(o.params.numaCpuNodes).toBe("0");
        }
        if (tunable === "queue/scheduler") expect(p.iodepth * p.numjobs).toBeGreaterThanOrEqual(32);
        if (tunable === "queue/nr_requests") {
          expect(o.values[0]).toBe(h.target!.queue["queue/nr_requests"]);
          expect(p.iodepth * p.numjobs).toBeGreaterThanOrEqual(2 * Math.min(...o.values.map(Number)));
        }
        if (tunable === "queue/read_ahead_kb") {
          expect(p.direct).toBe(false);
          expect(p.blockSizeKiB).toBe(4);
          // Passes over a file fio drops from the cache itself before each (invalidate), 6 s or
          // more even at a fast disk's rate (2 GB/s; NVMe 3.5 GB/s).
          const q = p as typeof p & { loops: number };
          expect(p.runtimeSec).toBeUndefined();
          expect(o.dropCaches).toBe(false);
          expect(q.sizeMiB * MiB * q.loops).toBeGreaterThanOrEqual((h.target!.device!.startsWith("nvme") ? 3.5e9 : 2e9) * 6);
        }
      }
    });
  }

  it("refuses what cannot bind, with the reason", () => {
    const one = planTrial("vm.zone_reclaim_mode", HOSTS["24 GiB, one node"]!);
    expect(one).toMatchObject({ offered: false, reason: "h has one NUMA node: zone reclaim has no other node to prefer." });
    expect(planTrial("vm.zone_reclaim_mode", HOSTS["256 GiB, two nodes"]!).offered).toBe(true);
    for (const t of ["vm.dirty_ratio", "queue/scheduler", "queue/read_ahead_kb"]) expect(planTrial(t, HOSTS["tmpfs target"]!)).toMatchObject({ offered: false, reason: expect.stringContaining("tmpfs") });
    for (const t of ["vm.swappiness", "vm.vfs_cache_pressure", "thp.enabled", "thp.defrag", "vm.dirty_expire_centisecs", "vm.dirty_writeback_centisecs"]) {
      expect(planTrial(t, HOSTS["256 GiB, two nodes"]!).offered, t).toBe(false);
    }
    expect(planTrial("vm.dirty_ratio", host({ dirtyableBytes: null }))).toMatchObject({ offered: false, reason: expect.stringContaining("update the agent") });
    expect(planTrial("vm.dirty_ratio", host({ settings: { "vm.dirty_bytes": "1000000" } })).offered).toBe(false);
    // fio drops its own file from the cache: no host-wide cache drop is needed.
    expect(planTrial("queue/read_ahead_kb", host({ dropCachesAllowed: false })).offered).toBe(true);
    // A target without room for a second of a fast disk's reading.
    expect(planTrial("queue/read_ahead_kb", host({ target: { freeBytes: 1 * GiB } }))).toMatchObject({ offered: false, reason: expect.stringContaining("to spare") });
    // Values too close together leave no band.
    expect(planTrial("vm.dirty_ratio", host(), ["20", "19"]).offered).toBe(false);
  });

  it("sizes the storage guide's dirty_ratio 20 vs 5 on a 24 GiB host between 5 % x1.25 and the freerun point of 20 % x0.85", () => {
    const o = planTrial("vm.dirty_ratio", host());
    if (!o.offered) throw new Error(o.reason);
    // dirty_ratio 5 is below dirty_background_ratio 10, so that arm's background threshold is 2.5 %.
    expect(dirtyThresholds(22 * GiB, { ratio: 5, bgRatio: 10, bytes: 0, bgBytes: 0 }).bg).toBeCloseTo(0.025 * 22 * GiB);
    expect(o.params.sizeMiB as number).toBeGreaterThan((0.05 * 22 * 1024 * 1.25));
    // 20 %: background 10 %, limit 20 %, freerun 15 %.
    expect(o.params.sizeMiB as number).toBeLessThan(0.15 * 22 * 1024 * 0.85);
    expect(o.params.sizeMiB as number).toBeGreaterThan(0.15 * 22 * 1024 * 0.85 - 8);
    expect(o.values).toEqual(["20", "5"]);
  });

  it("says before start when nr_requests' small arm is below the device's own queue depth", () => {
    const nvme = planTrial("queue/nr_requests", HOSTS.NVMe!);
    if (!nvme.offered) throw new Error(nvme.reason);
    expect(nvme.values).toEqual(["1023", "32"]);
    expect(nvme.risk).toMatch(/^32 is below nvme0n1's hardware queue depth 1023/);
    const unknown = planTrial("queue/nr_requests", host());
    if (!unknown.offered) throw new Error(unknown.reason);
    expect(unknown.risk).toBeNull();
    expect(unknown.warnings.join(" ")).toMatch(/does not report vda's hardware queue depth/);
  });

  it("lists madvise as thp.defrag's default", () => {
    expect(TUNABLE_TRIALS["thp.defrag"]!.values.split(",")[0]).toBe("madvise");
  });
});
