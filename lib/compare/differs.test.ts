import { describe, expect, it } from "vitest";
import { profileFacts, whatDiffers } from "./differs";
import { shareableProfile } from "./profile";
import { compareRun, profile } from "./testing";

const series = (...runs: ReturnType<typeof compareRun>[][]) => runs.map((r, i) => ({ key: `s${i}`, label: `series ${i}`, runs: r }));

describe("whatDiffers", () => {
  it("lists only the fields that differ, with each series' value", () => {
    const a = compareRun({ fsType: "ext3", profile: profile({ fsType: "ext3", mountOptions: ["rw", "data=ordered"] }) });
    const b = compareRun({ fsType: "xfs", profile: profile({ fsType: "xfs", mountOptions: ["rw", "noatime"] }) });
    const d = whatDiffers(series([a], [b]));
    expect(d.fields.map((f) => f.id)).toEqual(["fsType", "mountOptions"]);
    expect(d.fields[0]).toMatchObject({ label: "File system", values: { s0: "ext3", s1: "xfs" } });
    expect(d.fields[1]?.values).toEqual({ s0: "rw,data=ordered", s1: "rw,noatime" });
  });

  it("says nothing differs for identical profiles", () => {
    const d = whatDiffers(series([compareRun()], [compareRun()]));
    expect(d.fields).toEqual([]);
    expect(d.compared).toContain("File system");
    expect(d.compared).toContain("vm.dirty_ratio");
  });

  it("finds memory vs disk, kernel, scheduler, vm sysctls and THP", () => {
    const disk = compareRun();
    const shm = compareRun({
      fsType: "tmpfs",
      medium: "memory",
      profile: { ...profile({ fsType: "tmpfs", medium: "memory", device: null, kernel: "6.12.0", sysctls: { "vm.dirty_ratio": "10" } }), thp: { enabled: "always", defrag: "madvise" } },
    });
    const d = whatDiffers(series([disk], [shm]));
    const ids = d.fields.map((f) => f.id);
    expect(ids).toEqual(expect.arrayContaining(["fsType", "medium", "kernel", "sysctl:vm.dirty_ratio", "thpEnabled"]));
    // The tmpfs run has no device: unknown, so device and scheduler are not "different".
    expect(ids).not.toContain("device");
    expect(ids).not.toContain("scheduler");
    expect(ids).not.toContain("thpDefrag");
    expect(d.fields.find((f) => f.id === "medium")?.values).toEqual({ s0: "disk", s1: "memory" });
  });

  it("prefers the run's fs type and medium columns (per-host overrides applied) over the snapshot", () => {
    const a = compareRun({ medium: "ssd", profile: profile({ medium: "disk" }) });
    expect(profileFacts(a).medium).toBe("ssd");
  });

  it("does not count unknown values (imported runs) as differences, and names those runs", () => {
    const imported = compareRun({ origin: "IMPORTED", profile: null, fsType: null, medium: null, params: {} });
    const d = whatDiffers(series([compareRun()], [imported]));
    // Imported output records no parameters either: unknown, not different.
    expect(d.fields.map((f) => f.id)).toEqual([]);
    expect(d.withoutProfile).toEqual(["series 1"]);
  });

  it("shows a folded series' disagreeing values as a / b", () => {
    const d = whatDiffers(series([compareRun(), compareRun({ profile: profile({ kernel: "6.12.0" }) })], [compareRun()]));
    expect(d.fields.find((f) => f.id === "kernel")?.values).toEqual({ s0: "6.1.0-18-amd64 / 6.12.0", s1: "6.1.0-18-amd64" });
  });

  it("reports differing probe parameters without the target", () => {
    const a = compareRun();
    const b = compareRun({ params: { ...a.params, target: "/other", blockSizeKiB: 4 } });
    const f = whatDiffers(series([a], [b])).fields.find((x) => x.id === "params");
    expect(f?.values.s1).toBe("blockSizeKiB=4, direct=true, sizeMiB=256");
  });

  it("reads a reference run's synthetic profile", () => {
    const ref = compareRun({ origin: "REFERENCE", params: { preset: "iozone:ext-article" }, profile: { reference: { year: 2009 }, target: { fsType: "ext3", medium: "ssd", model: "Intel SSD samples" } }, fsType: "ext3", medium: "ssd" });
    const facts = profileFacts(ref);
    expect(facts).toMatchObject({ fsType: "ext3", medium: "ssd", model: "Intel SSD samples", host: null, kernel: null });
  });
});

describe("shareableProfile", () => {
  it("keeps what comparisons read and drops the rest of the host inventory", () => {
    const full = {
      ...profile(),
      targets: [{ path: "/secret/dir" }],
      blockDevices: [...profile().blockDevices, { name: "sdb", scheduler: "none" }],
      numa: { nodes: 2, cpusPerNode: { "0": "0-3" } },
      target: { ...profile().target, freeBytes: 123 },
    };
    const p = shareableProfile(full)!;
    expect(p.targets).toBeUndefined();
    expect(p.blockDevices).toEqual([profile().blockDevices[0]]);
    expect(p.numa).toEqual({ nodes: 2 });
    expect((p.target as Record<string, unknown>).freeBytes).toBeUndefined();
    expect((p.target as Record<string, unknown>).fsType).toBe("ext4");
    expect(p.sysctls).toEqual(full.sysctls);
    expect(shareableProfile(null)).toBeNull();
  });
});
