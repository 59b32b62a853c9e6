import os from "node:os";
import { describe, expect, it } from "vitest";
import { collectHostProfile, collectTargetProfile } from "./collect-host";
import { readHostProfile, readRunProfile } from "./read-profile";

const EMPTY = {
  collectedAt: null,
  hostname: null,
  kernel: { release: null, version: null },
  distro: null,
  os: null,
  cpu: { model: null, count: null, sockets: null },
  memory: { totalBytes: null, dirtyableBytes: null, dirtyThresholdBytes: null, dirtyBackgroundThresholdBytes: null },
  numa: { nodes: null },
  blockDevices: [],
  targets: [],
  sysctls: {},
  thp: { enabled: null, defrag: null },
};

/** What the server stores: the agent's profile after a trip through JSON. */
const stored = (v: unknown): unknown => JSON.parse(JSON.stringify(v));

describe("readHostProfile on profiles this machine's collector produces", () => {
  it("reads a host profile back unchanged", async () => {
    const collected = await collectHostProfile([os.tmpdir(), "/dev/shm"]);
    expect(collected.targets.length).toBeGreaterThan(0);
    expect(readHostProfile(stored(collected))).toEqual(collected);
  });

  it("reads a run's snapshot back unchanged, target included", async () => {
    const snapshot = await collectTargetProfile(os.tmpdir());
    const read = readRunProfile(stored(snapshot));
    expect(read).toEqual(snapshot);
    expect(read.target?.path).toBe(snapshot.target?.path);
    expect(read.memory.totalBytes).toBeGreaterThan(0);
  });
});

describe("readHostProfile on old, partial and malformed profiles", () => {
  it("never throws and reads absent or malformed parts as empty", () => {
    for (const p of [null, undefined, 42, "x", [], {}, { sysctls: "nope", thp: 3, targets: {}, numa: { nodes: "two" }, kernel: [], cpu: "amd" }]) {
      expect(readHostProfile(p)).toEqual(EMPTY);
      expect(readRunProfile(p)).toEqual({ ...EMPTY, target: null });
    }
  });

  it("reads os-release's ID and ID_LIKE, and nothing without an ID", () => {
    expect(readHostProfile({ os: { id: "rocky", idLike: ["rhel", "centos", "fedora", 3], versionId: "9.4" } }).os).toEqual({ id: "rocky", idLike: ["rhel", "centos", "fedora"], versionId: "9.4" });
    expect(readHostProfile({ os: { idLike: ["debian"] } }).os).toBeNull();
  });

  it("keeps the good parts of a partly malformed profile", () => {
    const v = readHostProfile({
      sysctls: { "vm.swappiness": 60, "vm.overcommit_memory": "0", bad: { nested: true } },
      targets: [{ path: "/ok", mountOptions: ["rw"] }, { nopath: true }, "junk", { path: "" }, { path: "/no-options", fsType: 4 }],
      blockDevices: [{ name: "vda", rotational: "yes", scheduler: "mq-deadline" }, { model: "no name" }],
      memory: { totalBytes: "lots" },
      cpu: { model: "AMD EPYC", count: 2 },
    });
    expect(v.sysctls).toEqual({ "vm.swappiness": "60", "vm.overcommit_memory": "0" });
    expect(v.targets.map((t) => [t.path, t.fsType, t.medium, t.mountOptions])).toEqual([
      ["/ok", null, null, ["rw"]],
      ["/no-options", null, null, []],
    ]);
    expect(v.blockDevices).toEqual([{ name: "vda", model: null, sizeBytes: null, rotational: null, type: null, scheduler: "mq-deadline" }]);
    expect(v.memory.totalBytes).toBeNull();
    expect(v.cpu).toEqual({ model: "AMD EPYC", count: 2, sockets: null });
  });

  it("reads the shapes older agents and hand-written profiles use", () => {
    const v = readHostProfile({
      hostname: "db1",
      kernel: { release: "2.6.32" },
      sysctls: { "vm.dirty_ratio": 20, "vm.overcommit_memory": false },
      thp: { enabled: "always madvise [never]" },
      // /proc/mounts style options, and a medium name no collector writes.
      targets: [{ path: "/var", fsType: "ext3", mountOptions: "rw, relatime,data=ordered", medium: "hdd", freeBytes: 1024 }],
      numa: { nodes: 2, cpusPerNode: { "0": "0-3", "1": 4 } },
    });
    expect(v.kernel).toEqual({ release: "2.6.32", version: null });
    expect(v.sysctls).toEqual({ "vm.dirty_ratio": "20", "vm.overcommit_memory": "false" });
    expect(v.thp).toEqual({ enabled: "always madvise [never]", defrag: null });
    expect(v.targets).toEqual([
      { path: "/var", fsType: "ext3", source: null, mountPoint: null, mountOptions: ["rw", "relatime", "data=ordered"], device: null, rotational: null, model: null, medium: null, totalBytes: null, freeBytes: 1024 },
    ]);
    expect(v.numa).toEqual({ nodes: 2, cpusPerNode: { "0": "0-3" } });
  });

  it("reads a reference run's synthetic snapshot, whose target has no path", () => {
    const v = readRunProfile({ reference: { year: 2009 }, target: { fsType: "ext3", medium: "ssd", model: "Intel SSD samples" } });
    expect(v.target).toMatchObject({ path: null, fsType: "ext3", medium: "ssd", model: "Intel SSD samples", device: null });
    expect(v.kernel.release).toBeNull();
  });
});
