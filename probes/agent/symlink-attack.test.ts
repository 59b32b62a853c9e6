// The attack: another user plants `<allowed>/probebook-dd.tmp -> /some/victim` in a shared sticky
// directory such as /dev/shm, and the next dd or iozone run truncates the victim. Real tools, a
// real agent loop against a local HTTP server, real files.
import { randomUUID } from "node:crypto";
import { chmodSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, statSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { Agent } from "./agent";
import { memoryLogger } from "./logger";
import { FakeAgentServer } from "./testing/fake-server";

const shm = existsDir("/dev/shm") ? "/dev/shm" : os.tmpdir();
// A world-writable sticky directory, like /dev/shm itself, that the agent is allowed to use.
const allowed = realpathSync(mkdtempSync(path.join(shm, "probebook-attack-")));
chmodSync(allowed, 0o1777);
const vault = realpathSync(mkdtempSync(path.join(os.tmpdir(), "probebook-victims-")));
afterAll(() => {
  rmSync(allowed, { recursive: true, force: true });
  rmSync(vault, { recursive: true, force: true });
});

function existsDir(p: string): boolean {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
}

const PRECIOUS = "root-owned secret that must survive\n";
/** A 0600 file outside the allowed directory, and a symlink to it planted under `name`. */
function plant(name: string): string {
  const victim = path.join(vault, `${name}-${randomUUID()}`);
  writeFileSync(victim, PRECIOUS, { mode: 0o600 });
  rmSync(path.join(allowed, name), { force: true });
  symlinkSync(victim, path.join(allowed, name));
  return victim;
}

let server: FakeAgentServer;
let stateDir: string;
beforeEach(async () => {
  server = await new FakeAgentServer().start();
  stateDir = mkdtempSync(path.join(vault, "state-"));
});
afterEach(() => server.close());

function agent() {
  const log = memoryLogger();
  const a = new Agent(
    { server: server.url, token: server.registrationToken, allowDirs: [allowed], stateDir, once: true },
    { log, claimWaitSec: 1, heartbeatIdleMs: 200, backoff: { baseMs: 5, capMs: 100 }, shutdownFlushMs: 2000 },
  );
  return { agent: a, log };
}

/** What the run left in the allowed dir: only the planted links may remain. */
const leftovers = () => readdirSync(allowed).filter((n) => !n.startsWith("probebook-") || n.startsWith("probebook-run-"));

describe("a symlink planted in a shared allowed directory", () => {
  it("never redirects a dd write: the victim survives and the run directory is gone", async () => {
    const victim = plant("probebook-dd.tmp");
    const job = { runId: randomUUID(), probe: "dd", params: { target: allowed, sizeMiB: 2, blockSizeKiB: 1024, direct: false } };
    server.jobs.push(job);
    const { agent: a, log } = agent();
    expect((await a.run()).code).toBe(0);
    expect(readFileSync(victim, "utf8")).toBe(PRECIOUS);
    expect(statSync(victim).mode & 0o777).toBe(0o600);
    expect(server.finishes.get(job.runId)).toMatchObject({ exitCode: 0, error: null });
    expect(server.output(job.runId)).toMatch(/2097152 bytes/);
    expect(log.lines.some((l) => l.includes(`of=${allowed}/probebook-run-`))).toBe(true);
    expect(leftovers()).toEqual([]);
  });

  it("never redirects a dd read either", async () => {
    const victim = plant("probebook-dd.tmp");
    const job = { runId: randomUUID(), probe: "dd", params: { target: allowed, sizeMiB: 2, blockSizeKiB: 1024, mode: "read", direct: false } };
    server.jobs.push(job);
    expect((await agent().agent.run()).code).toBe(0);
    expect(server.finishes.get(job.runId)).toMatchObject({ exitCode: 0, error: null });
    expect(readFileSync(victim, "utf8")).toBe(PRECIOUS);
    expect(leftovers()).toEqual([]);
  });

  it("never redirects iozone: the victim is not truncated", async () => {
    const victim = plant("probebook-iozone.tmp");
    const job = { runId: randomUUID(), probe: "iozone", params: { target: allowed, fileSizeMiB: 1, minRecordKiB: 64, maxRecordKiB: 128, tests: [0, 1] } };
    server.jobs.push(job);
    expect((await agent().agent.run()).code).toBe(0);
    expect(server.finishes.get(job.runId)).toMatchObject({ exitCode: 0, error: null });
    expect(readFileSync(victim, "utf8")).toBe(PRECIOUS);
    expect(leftovers()).toEqual([]);
  });

  it("removes the run directory after a cancel too", async () => {
    const victim = plant("probebook-iozone.tmp");
    const job = { runId: randomUUID(), probe: "iozone", params: { target: allowed, fileSizeMiB: 256, minRecordKiB: 4, maxRecordKiB: 16384 } };
    server.jobs.push(job);
    const running = agent().agent.run();
    await server.waitFor(() => server.chunks.has(job.runId), 15_000);
    // the probe is writing into its own directory right now
    expect(readdirSync(allowed).filter((n) => n.startsWith("probebook-run-"))).toHaveLength(1);
    server.cancelRequested.add(job.runId);
    await server.waitFor(() => server.finishes.has(job.runId), 10_000);
    expect(server.finishes.get(job.runId)).toMatchObject({ cancelled: true });
    expect((await running).code).toBe(0);
    expect(readFileSync(victim, "utf8")).toBe(PRECIOUS);
    expect(leftovers()).toEqual([]);
  });
});

describe("targets where a private run directory cannot be made safely", () => {
  it("are refused: world-writable without the sticky bit, or another user's directory", async () => {
    const open = path.join(allowed, "open");
    mkdirSync(open);
    chmodSync(open, 0o777);
    const theirs = path.join(allowed, "theirs");
    mkdirSync(theirs, { mode: 0o755 });
    const { chownSync } = await import("node:fs");
    const canChown = process.getuid?.() === 0;
    if (canChown) chownSync(theirs, 65534, 65534);
    const jobs = [open, ...(canChown ? [theirs] : [])].map((target) => ({ runId: randomUUID(), probe: "dd", params: { target, sizeMiB: 1, direct: false } }));
    for (const job of jobs) {
      server.jobs.push(job);
      expect((await agent().agent.run()).code).toBe(0);
      expect(server.finishes.get(job.runId)?.error).toMatch(/cannot make a private run directory/);
    }
    expect(server.finishes.get(jobs[0]!.runId)?.error).toMatch(/writable by other users without the sticky bit/);
    if (canChown) expect(server.finishes.get(jobs[1]!.runId)?.error).toMatch(/belongs to another user/);
    expect(readdirSync(open)).toEqual([]);
    rmSync(open, { recursive: true });
    rmSync(theirs, { recursive: true });
  });
});
