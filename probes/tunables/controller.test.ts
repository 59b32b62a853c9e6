import { execFileSync, spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { getTunable, parseAllowTunables } from "./catalogue";
import { TunableController, TunableError } from "./controller";

const isRoot = process.getuid?.() === 0;
const dirs: string[] = [];
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
});
function tmp(prefix: string) {
  const d = fs.mkdtempSync(path.join(os.tmpdir(), prefix));
  dirs.push(d);
  return d;
}

/** A /proc/sys and /sys tree of plain files, so the logic is tested without touching the host. */
function fakeKernel() {
  const root = tmp("pb-kernel-");
  const put = (rel: string, text: string) => {
    fs.mkdirSync(path.dirname(path.join(root, rel)), { recursive: true });
    fs.writeFileSync(path.join(root, rel), text);
  };
  put("proc/sys/vm/dirty_ratio", "20\n");
  put("proc/sys/vm/dirty_bytes", "0\n");
  put("proc/sys/vm/swappiness", "60\n");
  put("sys/kernel/mm/transparent_hugepage/enabled", "always [madvise] never\n");
  put("sys/block/vda/queue/scheduler", "none [mq-deadline] kyber bfq\n");
  return { root, read: (rel: string) => fs.readFileSync(path.join(root, rel), "utf8").trim() };
}

describe("the catalogue", () => {
  it("validates values per tunable", () => {
    const ratio = getTunable("vm.dirty_ratio");
    expect(ratio?.validate(5, "20")).toEqual({ ok: true, value: "5" });
    expect(ratio?.validate("101", "20")).toMatchObject({ ok: false });
    expect(ratio?.validate("5; reboot", "20")).toMatchObject({ ok: false });
    const sched = getTunable("queue/scheduler");
    expect(sched?.validate("bfq", "none [mq-deadline] bfq")).toEqual({ ok: true, value: "bfq" });
    expect(sched?.validate("cfq", "none [mq-deadline] bfq")).toMatchObject({ ok: false, error: expect.stringContaining("none, mq-deadline, bfq") });
    expect(sched?.file("../../etc")).toBeNull();
    expect(getTunable("thp.enabled")?.read("always [madvise] never")).toBe("madvise");
  });

  it("parses --allow-tunable and names what it does not know", () => {
    expect(parseAllowTunables(["vm.dirty_ratio,vm.dirty_background_ratio", "vm.dirty_ratio"])).toEqual({ ok: true, names: ["vm.dirty_ratio", "vm.dirty_background_ratio"] });
    expect(parseAllowTunables(["vm.drop_caches"])).toEqual({ ok: true, names: ["vm.drop_caches"] });
    expect(getTunable("vm.drop_caches")?.writeOnly).toBe(true);
    expect(parseAllowTunables(["kernel.core_pattern"])).toMatchObject({ ok: false, error: expect.stringContaining("unknown tunable kernel.core_pattern") });
  });
});

describe("TunableController on a fake kernel tree", () => {
  it("journals the original before writing, reads back, and restores", async () => {
    const k = fakeKernel();
    const stateDir = tmp("pb-state-");
    const c = new TunableController({ stateDir, allowed: new Set(["vm.dirty_ratio", "thp.enabled", "queue/scheduler"]), root: k.root });
    expect(await c.apply("vm.dirty_ratio", 5)).toEqual({ name: "vm.dirty_ratio", device: null, original: "20", value: "5" });
    expect(k.read("proc/sys/vm/dirty_ratio")).toBe("5");
    await c.apply("thp.enabled", "never");
    // A file that only echoes what is written stands in for the scheduler list here.
    await c.apply("queue/scheduler", "kyber", "vda");
    const journal = JSON.parse(fs.readFileSync(path.join(stateDir, "tunables-journal.json"), "utf8")) as { name: string; original: string }[];
    expect(journal.map((e) => [e.name, e.original])).toEqual([
      ["vm.dirty_ratio", "20"],
      ["thp.enabled", "madvise"],
      ["queue/scheduler", "mq-deadline"],
    ]);
    // Changing the same setting twice keeps the first original.
    await c.apply("vm.dirty_ratio", 7);
    expect(c.changed().find((e) => e.name === "vm.dirty_ratio")?.original).toBe("20");
    const outcomes = await c.restoreAll();
    expect(outcomes.every((o) => o.ok)).toBe(true);
    expect(k.read("proc/sys/vm/dirty_ratio")).toBe("20");
    expect(k.read("sys/kernel/mm/transparent_hugepage/enabled")).toBe("madvise");
    expect(k.read("sys/block/vda/queue/scheduler")).toBe("mq-deadline");
    expect(c.changed()).toEqual([]);
  });

  it("refuses what the agent's flags do not allow, before touching anything", async () => {
    const k = fakeKernel();
    const stateDir = tmp("pb-state-");
    const c = new TunableController({ stateDir, allowed: new Set(["vm.dirty_ratio", "vm.drop_caches"]), root: k.root });
    await expect(c.apply("vm.swappiness", 10)).rejects.toThrow(/--allow-tunable vm.swappiness/);
    // An action, never a setting to journal and restore, even when allowed.
    await expect(c.apply("vm.drop_caches", 3)).rejects.toThrow(/is an action, not a setting/);
    await expect(c.apply("kernel.core_pattern", "|/bin/sh")).rejects.toBeInstanceOf(TunableError);
    await expect(c.apply("vm.dirty_ratio", "1e3")).rejects.toThrow(/whole number/);
    expect(k.read("proc/sys/vm/swappiness")).toBe("60");
    expect(fs.existsSync(path.join(stateDir, "tunables-journal.json"))).toBe(false);
  });

  it("restores the dirty_bytes companion the kernel zeroed", async () => {
    const k = fakeKernel();
    fs.writeFileSync(path.join(k.root, "proc/sys/vm/dirty_ratio"), "0\n");
    fs.writeFileSync(path.join(k.root, "proc/sys/vm/dirty_bytes"), "268435456\n");
    const c = new TunableController({ stateDir: tmp("pb-state-"), allowed: new Set(["vm.dirty_ratio"]), root: k.root });
    await c.apply("vm.dirty_ratio", 10);
    fs.writeFileSync(path.join(k.root, "proc/sys/vm/dirty_bytes"), "0\n"); // what the kernel does
    await c.restoreAll();
    expect(k.read("proc/sys/vm/dirty_bytes")).toBe("268435456");
  });
});

const sysctlN = (name: string) => execFileSync("sysctl", ["-n", name], { encoding: "utf8" }).trim();

describe.skipIf(!isRoot)("on this kernel (needs root: writes /proc/sys)", () => {
  it("sets vm.dirty_ratio and vm.dirty_background_ratio and puts them back", async () => {
    const before = [sysctlN("vm.dirty_ratio"), sysctlN("vm.dirty_background_ratio")];
    const c = new TunableController({ stateDir: tmp("pb-state-"), allowed: new Set(["vm.dirty_ratio", "vm.dirty_background_ratio"]) });
    const target = before[0] === "7" ? 8 : 7;
    await c.apply("vm.dirty_ratio", target);
    await c.apply("vm.dirty_background_ratio", 3);
    expect(sysctlN("vm.dirty_ratio")).toBe(String(target));
    expect(sysctlN("vm.dirty_background_ratio")).toBe("3");
    await c.restoreAll();
    expect([sysctlN("vm.dirty_ratio"), sysctlN("vm.dirty_background_ratio")]).toEqual(before);
  });

  it("a process killed with SIGKILL after a change leaves a journal the next start restores", async () => {
    const before = sysctlN("vm.dirty_ratio");
    const stateDir = tmp("pb-state-");
    const script = `
      import { TunableController } from ${JSON.stringify(path.join(import.meta.dirname, "controller.ts"))};
      const c = new TunableController({ stateDir: ${JSON.stringify(stateDir)}, allowed: new Set(["vm.dirty_ratio"]) });
      await c.apply("vm.dirty_ratio", ${before === "9" ? 11 : 9});
      process.kill(process.pid, "SIGKILL");
    `;
    const file = path.join(stateDir, "apply-and-die.mjs");
    fs.writeFileSync(file, script);
    const child = spawnSync(process.execPath, ["--import", "tsx", file], { encoding: "utf8" });
    expect(child.signal).toBe("SIGKILL");
    expect(sysctlN("vm.dirty_ratio")).not.toBe(before);
    const restarted = new TunableController({ stateDir, allowed: new Set() });
    expect(restarted.changed().map((e) => e.name)).toEqual(["vm.dirty_ratio"]);
    const outcomes = await restarted.restoreAll();
    expect(outcomes).toEqual([{ name: "vm.dirty_ratio", device: null, original: before, value: before === "9" ? "11" : "9", restored: before, ok: true }]);
    expect(sysctlN("vm.dirty_ratio")).toBe(before);
  });

  it("refuses an out-of-range value before journaling or writing", async () => {
    const before = sysctlN("vm.dirty_ratio");
    const stateDir = tmp("pb-state-");
    const c = new TunableController({ stateDir, allowed: new Set(["vm.dirty_ratio"]) });
    await expect(c.apply("vm.dirty_ratio", 101)).rejects.toThrow(/from 0 to 100/);
    expect(sysctlN("vm.dirty_ratio")).toBe(before);
    expect(c.changed()).toEqual([]);
  });
});
