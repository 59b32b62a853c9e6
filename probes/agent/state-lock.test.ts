// Two real agent processes on one --state-dir: the second must refuse to start instead of
// replaying the first one's live spool as interrupted runs.
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, mkdirSync, mkdtempSync, readFileSync, realpathSync, rmSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { LOCK_FILE } from "./state-lock";
import { FakeAgentServer } from "./testing/fake-server";

const root = realpathSync(mkdtempSync(path.join(os.tmpdir(), "probebook-lock-")));
const allowed = path.join(root, "allowed");
mkdirSync(allowed);
afterAll(() => rmSync(root, { recursive: true, force: true }));

let server: FakeAgentServer;
const children: ChildProcess[] = [];
beforeEach(async () => {
  server = await new FakeAgentServer().start();
});
afterEach(async () => {
  for (const c of children.splice(0)) if (c.exitCode === null && c.signalCode === null) c.kill("SIGKILL");
  await server.close();
});

function startAgent(stateDir: string) {
  const child = spawn(
    process.execPath,
    ["--import", "tsx", path.join(__dirname, "main.ts"), "--server", server.url, "--allow", allowed, "--state-dir", stateDir],
    { env: { ...process.env, PROBEBOOK_AGENT_TOKEN: server.registrationToken }, stdio: ["ignore", "pipe", "pipe"] },
  );
  children.push(child);
  let output = "";
  child.stdout?.on("data", (d: Buffer) => (output += d.toString()));
  child.stderr?.on("data", (d: Buffer) => (output += d.toString()));
  const exited = new Promise<number | null>((resolve) => child.once("exit", (code) => resolve(code)));
  return { child, exited, output: () => output };
}

describe("one agent per state directory", () => {
  it("refuses a second agent with the first one's pid, and takes over a stale lock after a crash", async () => {
    const stateDir = path.join(root, "state");
    const first = startAgent(stateDir);
    await server.waitFor(() => server.registrations.length === 1, 20_000);
    expect(readFileSync(path.join(stateDir, LOCK_FILE), "utf8").trim()).toBe(String(first.child.pid));

    const second = startAgent(stateDir);
    expect(await second.exited).toBe(2);
    expect(second.output()).toContain(`another agent (pid ${first.child.pid}) is using the state directory ${stateDir}`);
    expect(first.child.exitCode).toBeNull();

    // killed without a chance to clean up: its pid file stays, but names a dead process
    first.child.kill("SIGKILL");
    await first.exited;
    expect(existsSync(path.join(stateDir, LOCK_FILE))).toBe(true);
    const third = startAgent(stateDir);
    // Taking a stale lock over removes the dead agent's file before writing its own: between the two
    // there is no file to read.
    const lockHolder = () => (existsSync(path.join(stateDir, LOCK_FILE)) ? readFileSync(path.join(stateDir, LOCK_FILE), "utf8").trim() : null);
    await server.waitFor(() => {
      try {
        return lockHolder() === String(third.child.pid);
      } catch {
        return false;
      }
    }, 20_000);
    third.child.kill("SIGTERM");
    expect(await third.exited).toBe(0);
    // a clean stop releases the lock
    expect(existsSync(path.join(stateDir, LOCK_FILE))).toBe(false);
  }, 60_000);
});
