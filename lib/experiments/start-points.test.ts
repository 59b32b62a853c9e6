import { describe, expect, it } from "vitest";
import { resolvePreset } from "../../probes/catalog";
import { compareExperimentHref, guideExperiment, tunableExperimentHref } from "./start-points";

const query = (href: string) => Object.fromEntries(new URL(href, "http://x").searchParams);

describe("experiment start points", () => {
  it("name presets the catalog has and tunables the catalogue has", () => {
    for (const name of ["vm.dirty_ratio", "vm.zone_reclaim_mode", "queue/scheduler", "thp.enabled", "vm.vfs_cache_pressure", "queue/read_ahead_kb"]) {
      const q = query(tunableExperimentHref(name)!);
      expect(q.tunable).toBe(name);
      expect(resolvePreset(`${q.probe}:${q.preset}`), `${q.probe}:${q.preset}`).toBeDefined();
    }
    expect(tunableExperimentHref("innodb_buffer_pool_size")).toBeNull();
    for (const slug of ["ext2-ext3-ext4-iozone", "storage-media-disk-flash-memory", "linux-memory-numa-databases"]) {
      const q = query(guideExperiment(slug)!.href);
      expect(resolvePreset(`${q.probe}:${q.preset}`)).toBeDefined();
    }
    expect(query(guideExperiment("ext2-ext3-ext4-iozone")!.href)).toMatchObject({ kind: "lab", fs: "ext2,ext3,ext4,xfs" });
    expect(guideExperiment("erlang-smp")).toBeNull();
  });

  it("turns compared runs on different file systems into lab arms", () => {
    const q = query(compareExperimentHref([{ probe: "dd", hostId: "h1", fsType: "ext4" }, { probe: "dd", hostId: "h1", fsType: "xfs" }, { probe: "dd", hostId: "h1", fsType: "ext4" }])!);
    expect(q).toMatchObject({ probe: "dd", host: "h1", kind: "lab", fs: "ext4,xfs" });
    expect(query(compareExperimentHref([{ probe: "fio", hostId: null, fsType: "tmpfs" }])!).kind).toBeUndefined();
  });
});
