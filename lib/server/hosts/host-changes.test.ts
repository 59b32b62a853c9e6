import { describe, expect, it } from "vitest";
import { hostChanges } from "./host-changes";

const tunables = {
  allowed: ["vm.dirty_ratio", "vm.dirty_background_ratio"],
  dropCaches: false,
  current: [
    { name: "vm.dirty_ratio", device: null, value: "7", changedFrom: "20" },
    { name: "vm.dirty_background_ratio", device: null, value: "10", changedFrom: null },
    { name: "queue/scheduler", device: "vda", value: "mq-deadline", changedFrom: null },
  ],
};

describe("hostChanges", () => {
  it("reads the lab and the tunables an agent reported, and what is changed right now", () => {
    const c = hostChanges({ agentVersion: "x", tools: {}, allowedDirs: [], lab: { dir: "/srv/lab", fileSystems: ["ext4", "xfs"], freeBytes: 2 ** 32 }, tunables });
    expect(c.lab).toEqual({ dir: "/srv/lab", fileSystems: ["ext4", "xfs"], freeBytes: 2 ** 32 });
    expect(c.tunables?.allowed).toEqual(["vm.dirty_ratio", "vm.dirty_background_ratio"]);
    expect(c.changedNow).toEqual([{ name: "vm.dirty_ratio", device: null, value: "7", from: "20" }]);
  });

  it("shows nothing changeable for an agent without --lab or --allow-tunable, or older capabilities", () => {
    expect(hostChanges({ agentVersion: "x", tools: {}, allowedDirs: [] })).toEqual({ lab: null, tunables: null, changedNow: [] });
    expect(hostChanges(null)).toEqual({ lab: null, tunables: null, changedNow: [] });
    // A malformed part is dropped on its own; the other part still reads.
    expect(hostChanges({ lab: { dir: 5 }, tunables }).tunables?.current).toHaveLength(3);
  });
});
