// The agent's state directory on a really full file system: a 64 KiB tmpfs (we run as root),
// filled to the last byte after the agent has registered. The run must still be delivered from
// memory, finished normally, carry the spool failure in its finish, and leave nothing behind.
import { execFileSync } from "node:child_process";
import { randomUUID } from "node:crypto";
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { Agent } from "./agent";
import { memoryLogger } from "./logger";
import { Lab } from "../lab/lab";
import { MIN_IMAGE_BYTES } from "../lab/file-systems";
import type { FinishRequest } from "../protocol/schemas";
import { TunableController } from "../tunables/controller";
import { HttpError } from "./http-client";
import { LogStreamer } from "./log-streamer";
import { FakeAgentServer } from "./testing/fake-server";

const root = realpathSync(mkdtempSync(path.join(os.tmpdir(), "probebook-full-")));
const allowed = path.join(root, "allowed");
const stateDir = path.join(root, "state");
mkdirSync(allowed);
mkdirSync(stateDir);

const isRoot = process.getuid?.() === 0;

beforeAll(() => {
  if (isRoot) execFileSync("mount", ["-t", "tmpfs", "-o", "size=64k,mode=0700", "tmpfs", stateDir]);
});
afterAll(() => {
  if (isRoot) execFileSync("umount", [stateDir]);
  rmSync(root, { recursive: true, force: true });
});

/** Writes until the file system says ENOSPC: nothing more fits, not even one byte. */
function fill(dir: string): void {
  const block = Buffer.alloc(4096, 1);
  const file = path.join(dir, "filler");
  rmSync(file, { force: true });
  try {
    for (let i = 0; i < 1_000; i++) writeFileSync(file, block, { flag: "a" });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOSPC") throw err;
  }
  try {
    for (let i = 0; i < 64; i++) writeFileSync(file, "x", { flag: "a" });
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code !== "ENOSPC") throw err;
  }
}

let server: FakeAgentServer;
beforeEach(async () => {
  server = await new FakeAgentServer().start();
  for (const n of readdirSync(stateDir)) rmSync(path.join(stateDir, n), { recursive: true, force: true });
});
afterEach(() => server.close());

function agent() {
  const log = memoryLogger();
  const a = new Agent(
    { server: server.url, token: server.registrationToken, allowDirs: [allowed], stateDir, once: true, telemetry: false },
    { log, claimWaitSec: 1, heartbeatIdleMs: 200, backoff: { baseMs: 5, capMs: 100 }, shutdownFlushMs: 2000 },
  );
  return { agent: a, log };
}

/**
 * Starts the agent on an empty state dir (it registers and takes its lock), fills the file system
 * while the agent waits for work, as a probe or a log would, then hands out `job`.
 */
async function runOnFullDisk(job: { runId: string; probe: string; params: Record<string, unknown> }) {
  const { agent: a, log } = agent();
  const running = a.run();
  await server.waitFor(() => server.log.some((l) => l.startsWith("/api/agent/jobs/claim")));
  fill(stateDir);
  server.jobs.push(job);
  const exit = await running;
  return { exit, log };
}

describe.skipIf(!isRoot)("an agent whose state directory is on a full file system", () => {
  it("delivers a dd run from memory, finishes it normally with the spool failure noted, and leaves nothing behind", async () => {
    const job = { runId: randomUUID(), probe: "dd", params: { target: allowed, sizeMiB: 2, blockSizeKiB: 1024 } };
    const { exit, log } = await runOnFullDisk(job);
    expect(exit.code).toBe(0);
    const fin = server.finishes.get(job.runId);
    expect(fin).toMatchObject({ exitCode: 0, error: null, interrupted: false, cancelled: false });
    expect(server.output(job.runId)).toMatch(/2\+0 records out/);
    expect(fin?.agentNotes?.join(" ")).toMatch(/spool.*no space left on device/i);
    expect(readdirSync(allowed)).toEqual([]);
    expect(readdirSync(path.join(stateDir, "spool"))).toEqual([]);
    expect(log.lines.some((l) => /ENOSPC|no space left/i.test(l))).toBe(true);
  });

  it("a sar run a few seconds long also finishes with its output", async () => {
    const job = { runId: randomUUID(), probe: "sar", params: { target: allowed, sections: ["u"], interval: 1, count: 2 } };
    await runOnFullDisk(job);
    const fin = server.finishes.get(job.runId);
    expect(fin).toMatchObject({ exitCode: 0, error: null });
    expect(server.output(job.runId)).toMatch(/Average:\s+all/);
    expect(fin?.agentNotes?.length).toBeGreaterThan(0);
    expect(readdirSync(allowed)).toEqual([]);
  });

  it("an arm's tunable is not changed when its journal cannot be written first", async () => {
    // A fake /proc tree, so that no real sysctl is touched.
    const kernel = path.join(root, "kernel");
    mkdirSync(path.join(kernel, "proc/sys/vm"), { recursive: true });
    writeFileSync(path.join(kernel, "proc/sys/vm/swappiness"), "60\n");
    fill(stateDir);
    const tunables = new TunableController({ stateDir, allowed: new Set(["vm.swappiness"]), root: kernel });
    await expect(tunables.apply("vm.swappiness", "10", null, randomUUID())).rejects.toThrow(/ENOSPC/);
    expect(readFileSync(path.join(kernel, "proc/sys/vm/swappiness"), "utf8").trim()).toBe("60");
    expect(tunables.changed()).toEqual([]);
  });

  it("no lab file system is made when the lab journal cannot be written, and nothing is left in the lab dir", async () => {
    const labDir = path.join(root, "lab");
    mkdirSync(labDir, { recursive: true });
    fill(stateDir);
    await expect(new Lab(labDir, stateDir).create("ext4", MIN_IMAGE_BYTES, [], randomUUID())).rejects.toThrow(/lab journal.*ENOSPC/);
    expect(readdirSync(labDir)).toEqual([]);
  });
});

describe("a run streamed from memory only", () => {
  it("holds at most memoryOnlyMaxChars of unacknowledged output, and says what it dropped", async () => {
    const log = memoryLogger();
    let serverUp = false;
    let finished: FinishRequest | null = null;
    const stored: string[] = [];
    const streamer = new LogStreamer(randomUUID(), { unavailable: "ENOSPC: no space left on device, open", root: "/state/spool" }, {
      upload: async (_id, chunks) => {
        if (!serverUp) throw new HttpError("server", 503, "unavailable");
        for (const c of chunks) stored[c.seq] = c.data;
        return { cancelRequested: false };
      },
      finish: async (_id, body) => {
        finished = body;
      },
      log,
      rejectedRoot: path.join(root, "rejected"),
      backoff: { baseMs: 5, capMs: 20 },
      memoryOnlyMaxChars: 10_000,
    });
    for (let i = 0; i < 100; i++) {
      streamer.write("x".repeat(999) + "\n");
      await new Promise((r) => setTimeout(r, 2));
    }
    serverUp = true;
    expect(await streamer.finish({ exitCode: 0, signal: null, durationMs: 1, error: null, cancelled: false, timedOut: false, interrupted: false, profile: null })).toBe("delivered");
    const text = stored.join("");
    expect(text.length).toBeLessThanOrEqual(10_000);
    expect(text.length).toBeGreaterThan(5_000);
    const notes = (finished as FinishRequest | null)?.agentNotes ?? [];
    expect(notes[0]).toMatch(/could not write this run's spool in \/state\/spool \(ENOSPC/);
    expect(notes[1]).toMatch(/characters of output were dropped/);
  });
});
