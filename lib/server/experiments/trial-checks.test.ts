import { describe, expect, it } from "vitest";
import { readHostProfile } from "../../../probes/profile/read-profile";
import { trialBindingErrors } from "./trial-checks";

const profile = (nodes: number) =>
  readHostProfile({ numa: { nodes }, targets: [{ path: "/srv/disk", fsType: "ext4", medium: "disk" }, { path: "/dev/shm", fsType: "tmpfs", medium: "memory" }] });

describe("arms whose setting cannot bind", () => {
  it("refuses zone_reclaim_mode on one NUMA node and page-cache settings on tmpfs", () => {
    expect(trialBindingErrors("h", profile(1), { "vm.zone_reclaim_mode": "1" }, "/srv/disk", "arms.1.tunables")).toEqual([
      ["arms.1.tunables.vm.zone_reclaim_mode", expect.stringContaining("h has one NUMA node")],
    ]);
    expect(trialBindingErrors("h", profile(2), { "vm.zone_reclaim_mode": "1" }, "/srv/disk", "arms.1.tunables")).toEqual([]);
    expect(trialBindingErrors("h", profile(2), { "vm.dirty_ratio": "5" }, "/dev/shm", "arms.0.tunables")[0]?.[1]).toMatch(/tmpfs/);
    expect(trialBindingErrors("h", profile(2), { "vm.dirty_ratio": "5" }, "/srv/disk", "arms.0.tunables")).toEqual([]);
    expect(trialBindingErrors("h", profile(1), { "thp.enabled": "never" }, "/dev/shm", "arms.0.tunables")).toEqual([]);
  });
});
