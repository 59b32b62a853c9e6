import { describe, expect, it } from "vitest";
import { readHostProfile } from "../../probes/profile/read-profile";
import type { HostProfile } from "../../probes/profile/types";
import { activeThpMode, hostValueFor, recommendedSysctlValue, recommendedThpModes } from "./host-values";

// How the reader treats absent and malformed parts is tested with it, in probes/profile/read-profile.test.ts.
const profile: HostProfile = readHostProfile({
  sysctls: { "vm.zone_reclaim_mode": "1", "vm.dirty_ratio": 20, "vm.min_free_kbytes": "67584" },
  thp: { enabled: "always madvise [never]", defrag: "[always] defer defer+madvise madvise never" },
  targets: [
    { path: "/data", fsType: "ext4", mountOptions: ["rw", "noatime", "nobarrier"], medium: "ssd" },
    { path: "/var", fsType: "ext4", mountOptions: "rw,relatime,data=ordered", medium: "hdd" },
  ],
  numa: { nodes: 2 },
});

describe("reading recommendations", () => {
  it("takes the leading number of a sysctl recommendation", () => {
    expect(recommendedSysctlValue("0 (add vm.zone_reclaim_mode = 0 to /etc/sysctl.conf)")).toBe("0");
    expect(recommendedSysctlValue("leave at 1 (default)")).toBe("1");
    expect(recommendedSysctlValue("3000 (30 s, default)")).toBe("3000");
    expect(recommendedSysctlValue("leave the kernel's computed value unless you have a measured reason")).toBeNull();
  });

  it("lists the THP modes a recommendation names, preferred first", () => {
    expect(recommendedThpModes("never for this kind of database; madvise is a reasonable middle ground")).toEqual(["never", "madvise"]);
    expect(recommendedThpModes("never (or defer / madvise) alongside enabled=never")).toEqual(["never", "defer", "madvise"]);
    expect(activeThpMode("always madvise [never]")).toBe("never");
    expect(activeThpMode("madvise")).toBe("madvise");
  });
});

describe("hostValueFor", () => {
  const sysctl = (name: string, recommended: string) => hostValueFor({ name, kind: "sysctl", recommended }, profile);

  it("compares sysctls with the recommended number", () => {
    expect(sysctl("vm.zone_reclaim_mode", "0 (add …)")).toEqual({ text: "1", status: "warn", detail: "2 NUMA nodes" });
    expect(sysctl("vm.dirty_ratio", "20 (today's mainline default)")).toEqual({ text: "20", status: "ok" });
    expect(sysctl("vm.min_free_kbytes", "leave the kernel's computed value")).toEqual({ text: "67584", status: "info" });
    expect(sysctl("vm.swappiness", "1")).toEqual({ text: "not reported", status: "none" });
  });

  it("reads THP modes from sysfs notation", () => {
    const enabled = hostValueFor(
      { name: "/sys/kernel/mm/transparent_hugepage/enabled", kind: "config", recommended: "never for databases; madvise is fine" },
      profile,
    );
    expect(enabled).toEqual({ text: "never", status: "ok" });
    const defrag = hostValueFor(
      { name: "/sys/kernel/mm/transparent_hugepage/defrag", kind: "config", recommended: "never (or defer / madvise)" },
      profile,
    );
    expect(defrag).toEqual({ text: "always", status: "warn" });
  });

  it("reports mount options per target and judges them by the guide's advice", () => {
    const mount = (name: string) => hostValueFor({ name, kind: "mount-option", recommended: "…" }, profile);
    expect(mount("noatime")).toEqual({ text: "yes on /data", status: "ok", detail: "relatime on /var" });
    expect(mount("barrier")).toMatchObject({ text: "nobarrier on /data", status: "warn" });
    expect(mount("delalloc")).toEqual({ text: "no", status: "ok" });
    expect(mount("data=writeback")).toEqual({ text: "data=ordered on /var", status: "ok" });
    expect(mount("discard")).toEqual({ text: "no", status: "info" });
  });

  it("warns when a target updates atime on every read", () => {
    const strict = readHostProfile({ targets: [{ path: "/db", mountOptions: ["rw", "strictatime"] }] });
    expect(hostValueFor({ name: "noatime", kind: "mount-option", recommended: "relatime or noatime" }, strict)).toMatchObject({
      text: "no",
      status: "warn",
    });
  });

  it("shows a dash for commands and application config", () => {
    expect(hostValueFor({ name: "sar -B", kind: "command", recommended: "x" }, profile)).toEqual({ text: "—", status: "none" });
    expect(hostValueFor({ name: "innodb_file_per_table", kind: "config", recommended: "ON" }, profile)).toEqual({ text: "—", status: "none" });
  });
});
