import { describe, expect, it } from "vitest";
import { resolvePreset } from "../../probes/catalog";
import { compareExperimentHref, guideExperiment, tunableExperimentHref, tunableNotOfferedReason } from "./start-points";

const query = (href: string) => Object.fromEntries(new URL(href, "http://x").searchParams);

describe("experiment start points", () => {
  it("name presets the catalog has and tunables the catalogue has", () => {
    for (const name of ["vm.dirty_ratio", "vm.zone_reclaim_mode", "queue/scheduler", "queue/nr_requests", "queue/read_ahead_kb"]) {
      const q = query(tunableExperimentHref(name)!);
      expect(q.tunable).toBe(name);
      expect(q.trial).toBe(name);
      expect(resolvePreset(`${q.probe}:${q.preset}`), `${q.probe}:${q.preset}`).toBeDefined();
    }
    expect(tunableExperimentHref("innodb_buffer_pool_size")).toBeNull();
    // Settings no probe can show get no link, and say why.
    for (const name of ["thp.enabled", "thp.defrag", "vm.vfs_cache_pressure", "vm.swappiness", "vm.dirty_expire_centisecs"]) {
      expect(tunableExperimentHref(name)).toBeNull();
      expect(tunableNotOfferedReason(name)).toMatch(/probe/);
    }
    for (const slug of ["ext2-ext3-ext4-iozone", "storage-media-disk-flash-memory", "linux-memory-numa-databases"]) {
      const q = query(guideExperiment(slug)!.href);
      expect(resolvePreset(`${q.probe}:${q.preset}`)).toBeDefined();
    }
    expect(query(guideExperiment("ext2-ext3-ext4-iozone")!.href)).toMatchObject({ kind: "lab", fs: "ext2,ext3,ext4,xfs" });
    expect(query(guideExperiment("storage-media-disk-flash-memory")!.href)).toMatchObject({ probe: "fio", preset: "seq-write", trial: "vm.dirty_ratio", values: "20,5" });
    expect(query(guideExperiment("linux-memory-numa-databases")!.href)).toMatchObject({ trial: "vm.zone_reclaim_mode", values: "0,1" });
    expect(guideExperiment("erlang-smp")).toBeNull();
  });

  it("turns compared runs on different file systems into lab arms", () => {
    const q = query(compareExperimentHref([run({ probe: "dd", fsType: "ext4" }), run({ probe: "dd", fsType: "xfs" }), run({ probe: "dd", fsType: "ext4" })])!);
    expect(q).toMatchObject({ probe: "dd", host: "h1", kind: "lab", fs: "ext4,xfs" });
    expect(query(compareExperimentHref([run({ probe: "fio", hostId: null, fsType: "tmpfs" })])!).kind).toBeUndefined();
  });

  it("keeps the compared runs' preset, parameters and target, and makes the one differing setting the arms", () => {
    const params = { rw: "randread", blockSizeKiB: 4, iodepth: 32, target: "/mnt/data" };
    const q = query(compareExperimentHref([run({ preset: "rand-read", params, sysctls: { "vm.dirty_ratio": "20", "vm.swappiness": "60" } }), run({ preset: "rand-read", params, sysctls: { "vm.dirty_ratio": "5", "vm.swappiness": "60" } })])!);
    expect(q).toMatchObject({ probe: "fio", preset: "rand-read", target: "/mnt/data", kind: "tunables", tunable: "vm.dirty_ratio", values: "20,5" });
    expect(JSON.parse(q.params!)).toEqual({ rw: "randread", blockSizeKiB: 4, iodepth: 32 });
    // Nothing differs: no arms are guessed.
    expect(query(compareExperimentHref([run({ params }), run({ params })])!).kind).toBeUndefined();
  });
});

function run(over: Partial<Parameters<typeof compareExperimentHref>[0][number]>): Parameters<typeof compareExperimentHref>[0][number] {
  return { probe: "fio", preset: null, params: {}, hostId: "h1", fsType: "ext4", sysctls: null, ...over };
}
