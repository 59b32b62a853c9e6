import { existsSync, mkdtempSync, readdirSync, readFileSync, realpathSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import os from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { removeScratchFiles, startCommand } from "./pty-runner";

const dir = realpathSync(mkdtempSync(path.join(os.tmpdir(), "probebook-pty-")));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

function run(file: string, args: string[], extra: { timeoutSec?: number; files?: string[]; env?: Record<string, string> } = {}) {
  let output = "";
  const cmd = startCommand(
    { file, args, env: extra.env ?? { LC_ALL: "C" }, cwd: dir, timeoutSec: extra.timeoutSec ?? 30, files: extra.files },
    { target: dir, onData: (t) => (output += t) },
  );
  return { cmd, output: () => output };
}

/**
 * Whether a process group still has a running member. Zombies do not count: they are dead,
 * and this sandbox's init reaps orphans lazily.
 */
function alive(pgid: number): boolean {
  for (const entry of readdirSync("/proc")) {
    if (!/^\d+$/.test(entry)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${entry}/stat`, "utf8");
    } catch {
      continue;
    }
    // pid (comm) state ppid pgrp …: comm may contain spaces, so split after the last ')'.
    const [state, , pgrp] = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    if (Number(pgrp) === pgid && state !== "Z") return true;
  }
  return false;
}

describe("startCommand", () => {
  it("runs real dd in a pty and streams its summary", async () => {
    const file = path.join(dir, "dd.tmp");
    const { cmd, output } = run("/usr/bin/dd", ["if=/dev/zero", `of=${file}`, "bs=64K", "count=16", "conv=fdatasync", "status=progress"], {
      files: [file],
    });
    const outcome = await cmd.done;
    expect(outcome).toMatchObject({ exitCode: 0, signal: null, timedOut: false, cancelled: false, error: null });
    expect(outcome.durationMs).toBeGreaterThanOrEqual(0);
    expect(output()).toMatch(/16\+0 records in\r?\n16\+0 records out\r?\n1048576 bytes \(1\.0 MB, 1\.0 MiB\) copied/);
    // the scratch file is deleted after the run
    expect(existsSync(file)).toBe(false);
  });

  it("keeps the exit status of tools that close their output before exiting (no SIGHUP race)", async () => {
    for (let i = 0; i < 10; i++) {
      const { cmd } = run("/usr/bin/dd", ["if=/dev/zero", "of=/dev/null", "count=1"]);
      expect(await cmd.done).toMatchObject({ exitCode: 0, signal: null });
    }
  });

  it("reports a failing tool's exit code and output", async () => {
    const { cmd, output } = run("/usr/bin/dd", ["if=/nonexistent/x", "of=/dev/null"]);
    expect(await cmd.done).toMatchObject({ exitCode: 1, signal: null });
    expect(output()).toMatch(/failed to open '\/nonexistent\/x': No such file or directory/);
  });

  it("passes only PATH, HOME and the command's env", async () => {
    process.env.PROBEBOOK_SECRET_FOR_TEST = "leak";
    const { cmd, output } = run("/usr/bin/env", [], { env: { LC_ALL: "C", S_TIME_FORMAT: "ISO" } });
    await cmd.done;
    delete process.env.PROBEBOOK_SECRET_FOR_TEST;
    expect(output()).toMatch(/S_TIME_FORMAT=ISO/);
    expect(output()).toMatch(/LC_ALL=C/);
    expect(output()).not.toMatch(/PROBEBOOK_SECRET_FOR_TEST/);
  });

  it("cancels sleep 30 within 2 s by signalling its process group", async () => {
    const { cmd } = run("/usr/bin/sleep", ["30"]);
    await new Promise((r) => setTimeout(r, 200));
    const pid = cmd.pid ?? 0;
    expect(alive(pid)).toBe(true);
    const t0 = Date.now();
    cmd.cancel();
    const outcome = await cmd.done;
    expect(Date.now() - t0).toBeLessThan(2000);
    expect(outcome).toMatchObject({ exitCode: null, signal: "SIGTERM", cancelled: true, timedOut: false });
    expect(alive(pid)).toBe(false);
  });

  it("kills what ignores SIGTERM, including forked children, within 2 s", async () => {
    // A shell script here is the test's own stand-in for a stubborn tool (iozone -t forks workers).
    const script = path.join(dir, "stubborn.sh");
    writeFileSync(script, "#!/bin/sh\ntrap '' TERM\nsleep 30 &\nwait\n", { mode: 0o755 });
    const { cmd } = run(script, []);
    await new Promise((r) => setTimeout(r, 300));
    const pid = cmd.pid ?? 0;
    const t0 = Date.now();
    cmd.cancel();
    const outcome = await cmd.done;
    expect(Date.now() - t0).toBeLessThan(2000);
    expect(outcome).toMatchObject({ exitCode: null, cancelled: true });
    await new Promise((r) => setTimeout(r, 1100));
    expect(alive(pid)).toBe(false);
  });

  it("enforces the timeout", async () => {
    const { cmd } = run("/usr/bin/sleep", ["30"], { timeoutSec: 0.3 });
    const outcome = await cmd.done;
    expect(outcome).toMatchObject({ timedOut: true, cancelled: false, exitCode: null, signal: "SIGTERM" });
    expect(outcome.durationMs).toBeLessThan(2000);
  });

  it("reports a command that cannot start", async () => {
    const { cmd, output } = run("/nonexistent/tool", []);
    const outcome = await cmd.done;
    expect(outcome.exitCode === 1 || outcome.error !== null).toBe(true);
    expect(output() + (outcome.error ?? "")).toMatch(/No such file|cannot start/);
  });
});

describe("removeScratchFiles", () => {
  it("deletes files inside the target only, and never follows symlinks", async () => {
    const inside = path.join(dir, "scratch.tmp");
    const outsideDir = realpathSync(mkdtempSync(path.join(os.tmpdir(), "probebook-outside-")));
    const outside = path.join(outsideDir, "keep.txt");
    writeFileSync(inside, "x");
    writeFileSync(outside, "keep");
    const link = path.join(dir, "link.tmp");
    symlinkSync(outside, link);
    await removeScratchFiles([inside, outside, link, `${dir}/../${path.basename(outsideDir)}/keep.txt`, dir], dir);
    expect(existsSync(inside)).toBe(false);
    expect(existsSync(link)).toBe(false);
    expect(readFileSync(outside, "utf8")).toBe("keep");
    expect(existsSync(dir)).toBe(true);
    rmSync(outsideDir, { recursive: true });
  });
});
