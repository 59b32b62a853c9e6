import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Job } from "../protocol/schemas";
import { Lab } from "../lab/lab";
import { diskOfPath } from "../profile/block-device";
import { MIN_IMAGE_BYTES } from "../lab/file-systems";
import { Agent } from "./agent";
import { ArmSetup } from "./arm-setup";
import { memoryLogger } from "./logger";
import { RunSpool } from "./spool";
import { FakeAgentServer } from "./testing/fake-server";
import { diskDir, loopsUnder, mountsUnder, snapshotSysctls, sysctl } from "./testing/host-facts";

const isRoot = process.getuid?.() === 0;
const made: string[] = [];
const restoreSysctls = isRoot ? snapshotSysctls(["vm.dirty_ratio", "vm.dirty_bytes"]) : () => undefined;
const original = isRoot ? sysctl("vm.dirty_ratio") : "";
// Another value than the host's, so that a change is visible.
const other = original === "7" ? "8" : "7";

let server: FakeAgentServer;
let allowed: string;
let labDir: string;
let stateDir: string;
beforeEach(async () => {
  server = await new FakeAgentServer().start();
  allowed = diskDir("allowed-", made);
  labDir = diskDir("lab-", made);
  stateDir = diskDir("state-", made);
});
afterEach(async () => {
  await server.close();
  // A failed assertion must not leave mounts behind.
  await new Lab(labDir, stateDir).cleanupLeftovers();
});
afterAll(() => {
  restoreSysctls();
  for (const d of made) fs.rmSync(d, { recursive: true, force: true });
});

function agent(opts: { lab?: boolean; tunables?: string[] } = {}) {
  const log = memoryLogger();
  const a = new Agent(
    {
      server: server.url,
      token: server.registrationToken,
      allowDirs: [allowed],
      stateDir,
      once: true,
      labDir: opts.lab ? labDir : null,
      allowTunables: opts.tunables ?? [],
    },
    { log, claimWaitSec: 1, heartbeatIdleMs: 200, heartbeatActiveMs: 100, backoff: { baseMs: 5, capMs: 100 }, shutdownFlushMs: 2000 },
  );
  return { agent: a, log };
}

const ddJob = (target: string, setup: Job["setup"]): Job => ({ runId: randomUUID(), probe: "dd", params: { target, sizeMiB: 16, blockSizeKiB: 1024 }, setup });
const labSetup = (fs: string, mountOptions: string[] = []) => ({ lab: { fs, imageBytes: MIN_IMAGE_BYTES, mountOptions, kind: "image" as const } });

function armRefusal(job: Job, opts: { lab?: boolean; tunables?: string[] }) {
  return new ArmSetup(job, job.setup ?? {}, { stateDir, labDir: opts.lab ? labDir : null, allowTunables: opts.tunables ?? [], log: memoryLogger() }).refusal();
}

describe.skipIf(!isRoot)("an experiment arm's setup, run by the agent (root: loop mounts, real sysctls)", () => {
  it("refuses what the agent's own flags do not allow, saying which flag, and changes nothing", async () => {
    expect(await armRefusal(ddJob(labDir, labSetup("ext4")), {})).toBe("this arm needs a lab file system, and the agent was started without --lab DIR");
    expect(await armRefusal(ddJob(allowed, { tunables: { "vm.dirty_ratio": "5" } }), { tunables: ["vm.swappiness"] })).toBe(
      "vm.dirty_ratio may not be changed on this host: start the agent with --allow-tunable vm.dirty_ratio",
    );
    expect(await armRefusal(ddJob(allowed, { tunables: { "kernel.core_pattern": "|/bin/sh" } }), {})).toMatch(/^kernel\.core_pattern is not in Probebook's tunable catalogue/);
    expect(await armRefusal(ddJob(allowed, { tunables: { "vm.dirty_ratio": "500" } }), { tunables: ["vm.dirty_ratio"] })).toBe("vm.dirty_ratio: must be from 0 to 100, got 500");
    expect(await armRefusal(ddJob(allowed, { tunables: { "vm.drop_caches": "3" } }), { tunables: ["vm.drop_caches"] })).toMatch(/is an action, not a setting/);
    expect(await armRefusal(ddJob(allowed, { dropCaches: true }), { tunables: ["vm.dirty_ratio"] })).toBe(
      "this arm drops the page cache, which this host does not allow: start the agent with --allow-tunable vm.drop_caches",
    );
    expect(await armRefusal(ddJob(labDir, labSetup("ext4", ["exec"])), { lab: true })).toBe('mount option "exec" is not offered for ext4');
    expect(await armRefusal(ddJob(labDir, labSetup("ntfs")), { lab: true })).toMatch(/"ntfs" is not a lab file system/);
    if (!fs.existsSync("/usr/sbin/mkfs.btrfs") && !fs.existsSync("/sbin/mkfs.btrfs")) {
      expect(await armRefusal(ddJob(labDir, labSetup("btrfs")), { lab: true })).toMatch(/^mkfs for btrfs is not installed on this host/);
    }
    expect(await armRefusal(ddJob(allowed, labSetup("ext4")), { lab: true })).toBe(`a lab arm's target must be the lab dir ${labDir}, not ${allowed}`);
    // The quarter rule of probes/lab/sizing.ts, the same the server sizes images by: 80 MiB of dd fits 320 MiB, 64 MiB more does not.
    expect(await armRefusal({ ...ddJob(labDir, labSetup("ext4")), params: { target: labDir, sizeMiB: 48 } }, { lab: true })).toBeNull();
    expect(await armRefusal({ ...ddJob(labDir, labSetup("ext4")), params: { target: labDir, sizeMiB: 80 } }, { lab: true })).toMatch(
      /^the probe writes 80 MiB, which must be at most a quarter of its lab volume: that needs 448 MiB, and this one has 320 MiB: make the image larger$/,
    );
    // A whole device the flag did not name is refused with the flag to add.
    const deviceSetup = { lab: { fs: "ext4", imageBytes: MIN_IMAGE_BYTES, mountOptions: [], kind: "device" as const, device: "/dev/loop0" } };
    expect(await armRefusal(ddJob(labDir, deviceSetup), { lab: true })).toMatch(/^\/dev\/loop0 was not named with --lab-device .*: start the agent with --lab-device \/dev\/loop0$/);

    // Through the agent: finished with the reason, in the finish and in its setup report; nothing ran.
    const job = ddJob(allowed, { tunables: { "vm.dirty_ratio": other } });
    server.jobs.push(job);
    await agent({ tunables: [] }).agent.run();
    const reason = `vm.dirty_ratio may not be changed on this host: start the agent with --allow-tunable vm.dirty_ratio`;
    expect(server.finishes.get(job.runId)).toMatchObject({ exitCode: null, lastSeq: -1, error: reason, setup: { lab: null, tunables: [], droppedCaches: false, error: reason } });
    expect(sysctl("vm.dirty_ratio")).toBe(original);
  });

  it("a setting the device refuses, after another was set: the probe does not run and everything is put back", async () => {
    const job = ddJob(allowed, { tunables: { "vm.dirty_ratio": other, "queue/scheduler": "no-such-scheduler" } });
    server.jobs.push(job);
    await agent({ tunables: ["vm.dirty_ratio", "queue/scheduler"] }).agent.run();
    const fin = server.finishes.get(job.runId);
    expect(fin).toMatchObject({ exitCode: null, lastSeq: -1, error: expect.stringMatching(/^the arm's setup failed: queue\/scheduler: must be one of .*got "no-such-scheduler"$/) });
    expect(fin?.setup).toMatchObject({ error: fin?.error, tunables: [{ name: "vm.dirty_ratio", from: original, to: other, restored: true }], cleanupError: null });
    expect(sysctl("vm.dirty_ratio")).toBe(original);
    // The run dir the guard made for the probe is gone too.
    expect(fs.readdirSync(allowed)).toEqual([]);
  });

  for (const fsType of ["ext4", "xfs"] as const) {
    it(`runs dd inside a fresh ${fsType} lab file system and takes it down before the finish`, async () => {
      const job = ddJob(labDir, labSetup(fsType, fsType === "xfs" ? ["noatime"] : []));
      // The loop device's own list decides what is valid (loop devices start with "none").
      const scheduler = /mq-deadline/.test(fs.readFileSync("/sys/block/loop0/queue/scheduler", "utf8")) ? "mq-deadline" : "none";
      if (fsType === "xfs") job.setup = { ...job.setup, tunables: { "queue/scheduler": scheduler } };
      server.jobs.push(job);
      const { agent: a, log } = agent({ lab: true, tunables: ["queue/scheduler"] });
      expect((await a.run()).code).toBe(0);
      const fin = server.finishes.get(job.runId);
      expect(fin).toMatchObject({ exitCode: 0, error: null });
      expect(server.output(job.runId)).toMatch(/16\+0 records out/);
      expect(fin?.setup?.lab).toMatchObject({
        fsType,
        driver: fsType,
        loopDevice: expect.stringMatching(/^\/dev\/loop\d+$/),
        imageBytes: MIN_IMAGE_BYTES,
        removed: true,
        // The lab dir is on a disk file system that takes O_DIRECT: the loop device reads and writes it directly.
        kind: "loop-dio",
        dio: true,
        dioReason: null,
        device: null,
        mkfsCommand: expect.stringMatching(new RegExp(`^mkfs\\.${fsType} `)),
      });
      if (fsType === "xfs") expect(fin?.setup?.lab?.mountOptions).toContain("noatime");
      expect(fin?.setup).toMatchObject({ droppedCaches: false, error: null, cleanupError: null });
      expect(fin?.setup?.tunables).toEqual(
        fsType === "xfs" ? [{ name: "queue/scheduler", device: fin?.setup?.lab?.loopDevice.replace("/dev/", ""), from: expect.any(String), to: scheduler, restored: true }] : [],
      );
      // dd wrote inside the mount, in its own run dir; the run's profile is the lab's file system.
      expect(log.lines.some((l) => new RegExp(`of=${labDir}/probebook-lab-${fsType}-\\w+/mnt/probebook-run-`).test(l))).toBe(true);
      expect(fin?.profile).toMatchObject({ target: { fsType } });
      expect(mountsUnder(labDir)).toEqual([]);
      expect(loopsUnder(labDir)).toEqual([]);
      expect(fs.readdirSync(labDir)).toEqual([]);
      // The capabilities went out again after the arm, with the lab in them.
      expect(server.heartbeats.at(-1)?.capabilities?.lab).toMatchObject({ dir: labDir, fileSystems: expect.arrayContaining(["ext4", "xfs"]) });
    });
  }

  it("sets vm.dirty_ratio for the run, reads it back, and puts it back before the finish", async () => {
    const job = { ...ddJob(allowed, { tunables: { "vm.dirty_ratio": other }, dropCaches: true }), params: { target: allowed, sizeMiB: 16, direct: false, fdatasync: false } };
    server.jobs.push(job);
    const seen: string[] = [];
    // What the kernel says while the probe runs.
    const watcher = setInterval(() => server.chunks.has(job.runId) && seen.push(sysctl("vm.dirty_ratio")), 20);
    const { agent: a } = agent({ tunables: ["vm.dirty_ratio", "vm.drop_caches"] });
    expect((await a.run()).code).toBe(0);
    clearInterval(watcher);
    expect(server.finishes.get(job.runId)?.setup).toEqual({
      lab: null,
      tunables: [{ name: "vm.dirty_ratio", device: null, from: original, to: other, restored: true }],
      droppedCaches: true,
      error: null,
      cleanupError: null,
    });
    expect(seen).toContain(other);
    expect(sysctl("vm.dirty_ratio")).toBe(original);
    expect(fs.existsSync(path.join(stateDir, "tunables-journal.json")) ? JSON.parse(fs.readFileSync(path.join(stateDir, "tunables-journal.json"), "utf8")) : []).toEqual([]);
    // "Changed right now": nothing, in the capabilities sent after the arm.
    const caps = server.heartbeats.at(-1)?.capabilities?.tunables;
    expect(caps).toMatchObject({ allowed: ["vm.dirty_ratio", "vm.drop_caches"], dropCaches: true });
    expect(caps?.current).toContainEqual({ name: "vm.dirty_ratio", device: null, value: original, changedFrom: null });
    const disk = await diskOfPath("/sys", allowed, null);
    if (disk) expect(caps?.current.some((c) => c.name === "queue/read_ahead_kb" && c.device === disk && c.changedFrom === null)).toBe(true);
  });

  it("a cancel in the middle of the probe reverts the settings and takes the lab down", async () => {
    const job: Job = {
      runId: randomUUID(),
      probe: "sar",
      params: { target: labDir, sections: ["u"], interval: 1, count: 30 },
      setup: { ...labSetup("ext4"), tunables: { "vm.dirty_ratio": other, "queue/read_ahead_kb": "512" } },
    };
    server.jobs.push(job);
    const running = agent({ lab: true, tunables: ["vm.dirty_ratio", "queue/read_ahead_kb"] }).agent.run();
    await server.waitFor(() => server.chunks.has(job.runId), 20_000);
    expect(sysctl("vm.dirty_ratio")).toBe(other);
    expect(mountsUnder(labDir)).toHaveLength(1);
    server.cancelRequested.add(job.runId);
    expect((await running).code).toBe(0);
    const fin = server.finishes.get(job.runId);
    expect(fin).toMatchObject({ cancelled: true });
    expect(fin?.setup?.tunables).toEqual([
      { name: "vm.dirty_ratio", device: null, from: original, to: other, restored: true },
      { name: "queue/read_ahead_kb", device: expect.stringMatching(/^loop\d+$/), from: expect.any(String), to: "512", restored: true },
    ]);
    expect(fin?.setup?.lab).toMatchObject({ fsType: "ext4", removed: true });
    expect(sysctl("vm.dirty_ratio")).toBe(original);
    expect(mountsUnder(labDir)).toEqual([]);
    expect(loopsUnder(labDir)).toEqual([]);
    expect(fs.readdirSync(labDir)).toEqual([]);
  }, 30_000);

  it("a finish with its setup report waits in the spool like any finish and is delivered at the next start", async () => {
    const job = ddJob(allowed, { tunables: { "vm.dirty_ratio": other } });
    server.jobs.push(job);
    server.refuseFinishes = true;
    const first = agent({ tunables: ["vm.dirty_ratio"] });
    const running = first.agent.run();
    const spoolDir = path.join(stateDir, "spool", job.runId);
    await server.waitFor(() => {
      try {
        return RunSpool.open(path.join(stateDir, "spool"), job.runId).contents.finish !== null;
      } catch {
        return false;
      }
    }, 20_000);
    first.agent.stop("test");
    await running;
    expect(RunSpool.open(path.join(stateDir, "spool"), job.runId).contents.finish?.setup?.tunables).toEqual([
      { name: "vm.dirty_ratio", device: null, from: original, to: other, restored: true },
    ]);
    expect(sysctl("vm.dirty_ratio")).toBe(original);

    server.refuseFinishes = false;
    const second = agent({ tunables: ["vm.dirty_ratio"] });
    const again = second.agent.run();
    // The server records the finish before it answers, and the agent removes the spool once it
    // reads the answer: stopping the agent in between (a loaded machine) would keep the spool for
    // the next start, rightly. Wait for both.
    await server.waitFor(() => server.finishes.has(job.runId) && !fs.existsSync(spoolDir));
    second.agent.stop("test");
    await again;
    expect(server.finishes.get(job.runId)).toMatchObject({ exitCode: 0, setup: { tunables: [{ name: "vm.dirty_ratio", restored: true }], error: null } });
  }, 30_000);
});
