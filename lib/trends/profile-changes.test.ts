import { beforeAll, describe, expect, it } from "vitest";
import type { RunProfileSnapshot } from "../../probes/profile/types";
import { diffProfiles, profileAnnotations, profileFields, roundedMemory, windowChanges } from "./profile-changes";
import { fixtureSnapshot, upgraded } from "./testing/fixture-profile";

let snap: RunProfileSnapshot;
beforeAll(async () => {
  snap = await fixtureSnapshot();
});
// Stored snapshots are JSON: go through it as the database does.
const stored = (s: RunProfileSnapshot) => JSON.parse(JSON.stringify(s)) as unknown;
const dd = { tool: "dd", toolVersion: "9.1", measurements: [], warnings: [] };

describe("profileFields", () => {
  it("labels what the captured machine's snapshot holds", () => {
    const f = profileFields(stored(snap), dd);
    expect(f.kernel).toEqual({ label: "kernel", value: "6.1.0-25-amd64" });
    expect(f["fs.type"]?.value).toBe("ext4");
    expect(f["mount.options"]?.value).toBe("rw,relatime,discard,resv_strict,resuid=65534,resgid=65534");
    expect(f["sysctl.vm.dirty_ratio"]).toEqual({ label: "`vm.dirty_ratio`", value: "20" });
    expect(f["thp.enabled"]?.value).toBe("madvise");
    expect(f["numa.nodes"]?.value).toBe("1");
    expect(f["cpu.count"]?.value).toBe("2");
    expect(f["memory.total"]?.value).toBe("24 GiB");
    expect(f["tool.version"]).toEqual({ label: "dd version", value: "9.1" });
  });
  it("reads nothing from a run without a profile or a malformed one, and never throws", () => {
    expect(profileFields(null, null)).toEqual({});
    expect(profileFields("junk", { tool: 3 })).toEqual({});
    expect(profileFields({ kernel: { release: 7 }, sysctls: { "vm.swappiness": 10 } })).toEqual({ "sysctl.vm.swappiness": { label: "`vm.swappiness`", value: "10" } });
  });
  it("rounds memory so a few MiB of reserved memory between kernels is no change", () => {
    expect(roundedMemory(25276502016)).toBe(roundedMemory(25276502016 - 40 * 2 ** 20));
    expect(roundedMemory(2 ** 31 + 3 * 2 ** 20)).toBe("2048 MiB");
  });
});

describe("diffProfiles and annotations", () => {
  it("names a kernel upgrade and a sysctl change, kernel first", () => {
    const a = profileFields(stored(snap), dd);
    const b = profileFields(stored(upgraded(snap, "6.1.0-28-amd64", { "vm.dirty_ratio": "10" })), dd);
    expect(diffProfiles(a, b)).toEqual([
      { field: "kernel", label: "kernel", from: "6.1.0-25-amd64", to: "6.1.0-28-amd64" },
      { field: "sysctl.vm.dirty_ratio", label: "`vm.dirty_ratio`", from: "20", to: "10" },
    ]);
  });
  it("a fact one side does not know is not a change", () => {
    const a = profileFields(stored(snap), { tool: "dd", toolVersion: null });
    const b = profileFields(stored(snap), dd);
    expect(diffProfiles(a, b)).toEqual([]);
  });
  it("annotates the first run with the new profile, across runs without one", () => {
    const old = profileFields(stored(snap), dd);
    const neu = profileFields(stored(upgraded(snap, "6.1.0-28-amd64", {})), dd);
    const runs = [
      { id: "1", at: "t1", fields: old },
      { id: "2", at: "t2", fields: {} },
      { id: "3", at: "t3", fields: neu },
      { id: "4", at: "t4", fields: neu },
    ];
    expect(profileAnnotations(runs)).toEqual([{ runId: "3", at: "t3", changes: [{ field: "kernel", label: "kernel", from: "6.1.0-25-amd64", to: "6.1.0-28-amd64" }] }]);
  });
});

describe("windowChanges", () => {
  it("compares each window's most common value: one stray run does not make a change", () => {
    const base = profileFields(stored(snap), dd);
    const stray = profileFields(stored(upgraded(snap, "6.1.0-25-amd64", { "vm.swappiness": "1" })), dd);
    expect(windowChanges([base, base, stray, base, base], [base, stray, base, base, base])).toEqual([]);
    const neu = profileFields(stored(upgraded(snap, "6.1.0-28-amd64", { "vm.dirty_ratio": "10" })), dd);
    expect(windowChanges([base, base, base, base, neu], [neu, neu, neu, base, neu]).map((c) => c.field)).toEqual(["kernel", "sysctl.vm.dirty_ratio"]);
  });
});
