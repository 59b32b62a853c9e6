// The real agent process, killed with SIGKILL in the middle of an arm: the next start must put
// the host back from its journals before it claims anything.
import { spawn, type ChildProcess } from "node:child_process";
import { randomUUID } from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import type { Job } from "../protocol/schemas";
import { FakeAgentServer } from "./testing/fake-server";
import { diskDir, loopsUnder, mountsUnder, snapshotSysctls, sysctl } from "./testing/host-facts";
import { labImageBytesFor } from "../lab/sizing";

const isRoot = process.getuid?.() === 0;
const made: string[] = [];
const restoreSysctls = isRoot ? snapshotSysctls(["vm.dirty_ratio", "vm.dirty_bytes"]) : () => undefined;
const original = isRoot ? sysctl("vm.dirty_ratio") : "";
const other = original === "7" ? "8" : "7";

let server: FakeAgentServer;
let allowed: string;
let labDir: string;
let stateDir: string;
const children: ChildProcess[] = [];
beforeEach(async () => {
  server = await new FakeAgentServer().start();
  allowed = diskDir("crash-allowed-", made);
  labDir = diskDir("crash-lab-", made);
  stateDir = diskDir("crash-state-", made);
});
afterEach(async () => {
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill("SIGKILL");
  await server.close();
});
afterAll(() => {
  restoreSysctls();
  for (const d of made) fs.rmSync(d, { recursive: true, force: true });
});

/** `node --import tsx probes/agent/main.ts …`, as a user would start it (from source). */
function startAgent(extra: string[]): { child: ChildProcess; log: () => string } {
  let log = "";
  const child = spawn(
    process.execPath,
    ["--import", "tsx", path.join(import.meta.dirname, "main.ts"), "--server", server.url, "--allow", allowed, "--state-dir", stateDir, ...extra],
    { env: { ...process.env, PROBEBOOK_AGENT_TOKEN: server.registrationToken }, stdio: ["ignore", "ignore", "pipe"] },
  );
  child.stderr?.on("data", (d: Buffer) => (log += d.toString()));
  children.push(child);
  return { child, log: () => log };
}

async function kill9(child: ChildProcess): Promise<void> {
  const gone = new Promise((r) => child.once("exit", r));
  child.kill("SIGKILL");
  await gone;
}

async function stop(child: ChildProcess): Promise<void> {
  const gone = new Promise((r) => child.once("exit", r));
  child.kill("SIGTERM");
  await gone;
}

describe.skipIf(!isRoot)("after a SIGKILL in the middle of an arm, the next start reverts it (root)", () => {
  it("puts vm.dirty_ratio back to the host's value", async () => {
    const job: Job = {
      runId: randomUUID(),
      probe: "dd",
      params: { target: allowed, sizeMiB: 4096, blockSizeKiB: 1024 },
      setup: { tunables: { "vm.dirty_ratio": other } },
    };
    server.jobs.push(job);
    const first = startAgent(["--allow-tunable", "vm.dirty_ratio"]);
    await server.waitFor(() => sysctl("vm.dirty_ratio") === other, 30_000);
    await kill9(first.child);
    // Nothing put it back: only the journal knows the original now.
    expect(sysctl("vm.dirty_ratio")).toBe(other);

    // Restarted without --allow-tunable: restoring needs no permission, only the journal.
    const second = startAgent([]);
    await server.waitFor(() => sysctl("vm.dirty_ratio") === original, 30_000);
    await server.waitFor(() => server.finishes.has(job.runId), 30_000);
    await stop(second.child);
    expect(second.log()).toMatch(new RegExp(`info restored vm\\.dirty_ratio to ${original}: an earlier agent process changed it`));
    // The interrupted run's finish says what its arm had changed and that this start put it back.
    expect(server.finishes.get(job.runId)).toMatchObject({
      interrupted: true,
      setup: { lab: null, tunables: [{ name: "vm.dirty_ratio", device: null, from: original, to: other, restored: true }], cleanupError: null },
    });
    expect(JSON.parse(fs.readFileSync(path.join(stateDir, "tunables-journal.json"), "utf8"))).toEqual([]);
  }, 90_000);

  it("takes down the lab file system left mounted", async () => {
    const job: Job = {
      runId: randomUUID(),
      probe: "dd",
      params: { target: labDir, sizeMiB: 512, blockSizeKiB: 1024 },
      setup: { lab: { fs: "ext4", imageBytes: labImageBytesFor(512 * 2 ** 20), mountOptions: [], kind: "image" } },
    };
    server.jobs.push(job);
    const first = startAgent(["--lab", labDir]);
    await server.waitFor(() => server.chunks.has(job.runId) || server.finishes.has(job.runId), 30_000);
    expect(server.finishes.has(job.runId)).toBe(false);
    await kill9(first.child);
    expect(mountsUnder(labDir)).toHaveLength(1);
    expect(loopsUnder(labDir)).toHaveLength(1);

    const second = startAgent([]);
    await server.waitFor(() => mountsUnder(labDir).length === 0 && fs.readdirSync(labDir).length === 0, 30_000);
    await server.waitFor(() => server.finishes.has(job.runId), 30_000);
    await stop(second.child);
    expect(loopsUnder(labDir)).toEqual([]);
    expect(server.finishes.get(job.runId)).toMatchObject({
      interrupted: true,
      setup: { lab: { fsType: "ext4", driver: "ext4", imageBytes: labImageBytesFor(512 * 2 ** 20), kind: "loop-dio", dio: true, loopDevice: expect.stringMatching(/^\/dev\/loop\d+$/), removed: true }, tunables: [] },
    });
    expect(second.log()).toMatch(new RegExp(`info removed the lab file system ${labDir}/probebook-lab-ext4-\\w+ \\(/dev/loop\\d+\\) an earlier agent process left behind`));
  }, 90_000);
});
