import { closeSync, constants, openSync } from "node:fs";
import { lstat, unlink } from "node:fs/promises";
import os from "node:os";
import path from "node:path";
import { performance } from "node:perf_hooks";
import * as pty from "node-pty";
import type { CommandSpec } from "../catalog";
import { isInside } from "./path-inside";

export interface RunOutcome {
  /** null when the process was killed by a signal or never started. */
  exitCode: number | null;
  signal: string | null;
  durationMs: number;
  timedOut: boolean;
  cancelled: boolean;
  /** Why the process could not be started. */
  error: string | null;
}

export interface RunningCommand {
  pid: number | null;
  /** SIGTERM to the whole process group, SIGKILL a second later. Idempotent. */
  cancel(): void;
  done: Promise<RunOutcome>;
}

export interface RunOptions {
  onData(text: string): void;
  /** The run's real target directory: scratch files are deleted only inside it. */
  target: string;
  killGraceMs?: number;
}

const DEFAULT_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin";

function signalName(n: number): string {
  const entry = Object.entries(os.constants.signals).find(([, v]) => v === n);
  return entry ? entry[0] : String(n);
}

/** Kills the group; ESRCH (already gone) is the expected outcome of the second signal. */
function killGroup(pid: number, sig: NodeJS.Signals): void {
  try {
    process.kill(-pid, sig);
  } catch {
    // the group is gone
  }
}

/**
 * Keeps the terminal's slave side open in the agent while the tool runs. Without it, a tool
 * that closes its stdout/stderr before exiting (coreutils does, in an atexit handler) makes
 * node-pty read EIO and close the master; the kernel then hangs the terminal up and the tool
 * dies of SIGHUP an instant before its own exit(0) — the run's exit status would be lost. With
 * it, node-pty closes the master only after the exit was reaped. If the agent dies, this fd
 * dies with it, and the hangup still takes the probe down.
 */
function holdSlave(child: pty.IPty): number | null {
  const name = (child as unknown as { ptsName?: unknown }).ptsName;
  if (typeof name !== "string" || !name.startsWith("/dev/")) return null;
  try {
    return openSync(name, constants.O_RDWR | constants.O_NOCTTY);
  } catch {
    return null;
  }
}

/** Deletes the command's scratch files; a path outside the target is never touched. */
export async function removeScratchFiles(files: readonly string[], target: string): Promise<void> {
  for (const f of files) {
    if (!isInside(f, target)) continue;
    try {
      // lstat, then unlink: a symlink planted in place of the file is removed, never followed.
      if (!(await lstat(f)).isDirectory()) await unlink(f);
    } catch {
      // already gone
    }
  }
}

/**
 * Runs one command in a pseudo-terminal (tools buffer less and print progress on a tty) by
 * argv, never through a shell. node-pty makes the child a session and process-group leader,
 * so signalling -pid also reaches what the tool forked (a benchmark's worker processes).
 */
export function startCommand(spec: CommandSpec, opts: RunOptions): RunningCommand {
  const started = performance.now();
  const grace = opts.killGraceMs ?? 1000;
  let cancelled = false;
  let timedOut = false;
  let exited = false;
  let killTimer: NodeJS.Timeout | null = null;
  const finish = async (o: Omit<RunOutcome, "durationMs" | "cancelled" | "timedOut">): Promise<RunOutcome> => {
    await removeScratchFiles(spec.files ?? [], opts.target);
    return { ...o, durationMs: Math.round(performance.now() - started), cancelled, timedOut };
  };

  let child: pty.IPty;
  try {
    child = pty.spawn(spec.file, spec.args, {
      name: "xterm",
      cols: 120,
      rows: 40,
      cwd: spec.cwd,
      // A small, explicit environment: the agent's own variables are none of the tool's business.
      env: { PATH: process.env.PATH ?? DEFAULT_PATH, HOME: process.env.HOME ?? "/", ...spec.env },
    });
  } catch (err) {
    const error = `cannot start ${path.basename(spec.file)}: ${err instanceof Error ? err.message : String(err)}`;
    return { pid: null, cancel: () => undefined, done: finish({ exitCode: null, signal: null, error }) };
  }

  const pid = child.pid;
  const slave = holdSlave(child);
  const stop = () => {
    killGroup(pid, "SIGTERM");
    // Whatever ignores SIGTERM dies a second later; the group is signalled even when the leader
    // has already exited, for workers it left behind.
    if (killTimer === null) {
      killTimer = setTimeout(() => killGroup(pid, "SIGKILL"), grace);
      killTimer.unref();
    }
  };
  const timeout = setTimeout(() => {
    timedOut = true;
    stop();
  }, spec.timeoutSec * 1000);

  const data = child.onData((text) => opts.onData(text));
  const done = new Promise<RunOutcome>((resolve) => {
    child.onExit(({ exitCode, signal }) => {
      exited = true;
      clearTimeout(timeout);
      if (slave !== null) closeSync(slave);
      data.dispose();
      const sig = signal ? signalName(signal) : null;
      void finish({ exitCode: sig ? null : exitCode, signal: sig, error: null }).then(resolve);
    });
  });
  return {
    pid,
    cancel: () => {
      if (exited) return;
      cancelled = true;
      stop();
    },
    done,
  };
}
