import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { profileSchema } from "../protocol/schemas";
import { collectHostProfile, collectTargetProfile, SYSCTL_KEYS, type ProfileSources } from "./collect-host";

const fixture = (name: string) => readFileSync(path.join(__dirname, "fixtures", name), "utf8");
const root = mkdtempSync(path.join(os.tmpdir(), "probebook-host-"));
afterAll(() => rmSync(root, { recursive: true, force: true }));

function put(rel: string, text: string) {
  mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
  writeFileSync(path.join(root, rel), text);
}

// The fixture machine rebuilt as files and canned tool output.
put("proc/meminfo", fixture("sysinfo-meminfo-full.txt"));
for (const line of fixture("sysinfo-sysctl-vm.txt").trim().split("\n")) {
  const [key, value] = line.split(" = ");
  if (key && value) put(`proc/sys/${key.replace(".", "/")}`, `${value}\n`);
}
put("proc/sys/vm/min_free_kbytes", "67584\n");
put("proc/sys/vm/overcommit_memory", "0\n");
put("sys/kernel/mm/transparent_hugepage/enabled", fixture("sysinfo-thp-enabled.txt"));
put("sys/kernel/mm/transparent_hugepage/defrag", fixture("sysinfo-thp-defrag.txt"));
put("sys/block/vda/queue/scheduler", "none [mq-deadline] kyber bfq \n");
put("sys/block/loop2/queue/scheduler", "[none] mq-deadline kyber bfq \n");
put("etc/os-release", fixture("os-release.txt"));

const canned: Record<string, string> = {
  lscpu: fixture("sysinfo-lscpu.json"),
  lsblk: fixture("sysinfo-lsblk-bytes.json"),
  findmnt: fixture("sysinfo-findmnt.json"),
};
const fake: ProfileSources = {
  procRoot: path.join(root, "proc"),
  sysRoot: path.join(root, "sys"),
  osReleaseFiles: [path.join(root, "etc/missing"), path.join(root, "etc/os-release")],
  run: async (file) => canned[file] ?? null,
};

describe("collectHostProfile from the captured machine", () => {
  it("assembles the documented shape with the real values", async () => {
    const p = await collectHostProfile([], fake);
    expect(p).toMatchObject({
      distro: "Debian GNU/Linux 12 (bookworm)",
      cpu: { model: "AMD EPYC", count: 2, sockets: 1 },
      memory: { totalBytes: 25276502016 },
      numa: { nodes: 1, cpusPerNode: { "0": "0,1" } },
      targets: [],
      thp: { enabled: "madvise", defrag: "madvise" },
      sysctls: {
        "vm.dirty_ratio": "20",
        "vm.dirty_background_ratio": "10",
        "vm.dirty_expire_centisecs": "3000",
        "vm.dirty_writeback_centisecs": "500",
        "vm.zone_reclaim_mode": "0",
        "vm.swappiness": "60",
        "vm.min_free_kbytes": "67584",
        "vm.overcommit_memory": "0",
      },
    });
    expect(p.blockDevices).toEqual([
      { name: "loop2", model: null, sizeBytes: 536870912, rotational: true, type: "loop", scheduler: "none" },
      { name: "zram0", model: null, sizeBytes: 0, rotational: false, type: "disk", scheduler: null },
      { name: "vda", model: null, sizeBytes: 274877906944, rotational: true, type: "disk", scheduler: "mq-deadline" },
    ]);
    expect(Date.parse(p.collectedAt ?? "")).not.toBeNaN();
  });

  it("fills nulls and fallbacks when every tool and file is missing", async () => {
    const p = await collectHostProfile([path.join(root, "nope")], {
      procRoot: "/nonexistent", sysRoot: "/nonexistent", osReleaseFiles: [], run: async () => null,
    });
    expect(p).toMatchObject({
      distro: null,
      cpu: { model: null, count: os.cpus().length, sockets: null },
      memory: { totalBytes: os.totalmem() },
      numa: { nodes: 1 },
      blockDevices: [],
      sysctls: {},
      thp: { enabled: null, defrag: null },
    });
    expect(p.targets[0]).toMatchObject({ fsType: null, medium: "unknown", freeBytes: null });
  });
});

describe("on this machine", () => {
  it("collects plain JSON with every documented key", async () => {
    const p = await collectHostProfile([os.tmpdir(), "/dev/shm"]);
    expect(JSON.parse(JSON.stringify(p))).toEqual(p);
    expect(profileSchema.safeParse(p).success).toBe(true);
    expect(Object.keys(p).sort()).toEqual(
      ["blockDevices", "collectedAt", "cpu", "distro", "hostname", "kernel", "memory", "numa", "os", "sysctls", "targets", "thp"].sort(),
    );
    expect(p.kernel.release).toBe(os.release());
    expect(p.cpu.count).toBeGreaterThan(0);
    expect(p.memory.totalBytes).toBeGreaterThan(0);
    for (const key of SYSCTL_KEYS.filter((k) => !k.includes("bytes") && k !== "vm.nr_hugepages")) {
      expect(p.sysctls[key], key).toMatch(/^\d+$/);
    }
    expect(p.targets.map((t) => t.medium)[1]).toBe("memory");
    expect(p.blockDevices.every((d) => d.name.length > 0)).toBe(true);
  });

  it("takes a per-run snapshot of one target", async () => {
    const s = await collectTargetProfile(os.tmpdir());
    expect(s.target.path).toBe(s.targets[0]?.path);
    expect(s.target.totalBytes).toBeGreaterThan(0);
  });
});
