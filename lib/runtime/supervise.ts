// Process plumbing for `npm start`: children run in process groups of their own so that a stop
// reaches whatever they forked (next start's server process holds the port), and the local agent
// is restarted when it crashes.
import type { ChildProcess } from "node:child_process";

export function signalGroup(child: ChildProcess, sig: NodeJS.Signals): void {
  if (child.pid === undefined) return;
  try {
    // Negative pid: the whole group (children are spawned with detached: true, i.e. as leaders).
    process.kill(-child.pid, sig);
  } catch {
    try {
      child.kill(sig);
    } catch {
      // already gone
    }
  }
}

const exited = (c: ChildProcess) => c.exitCode !== null || c.signalCode !== null;

/**
 * SIGTERM to the child's process group, SIGKILL to the group after `graceMs`: a web server that
 * hangs cannot keep its port after npm start stopped. Resolves once the child has exited.
 */
export function stopProcessGroup(child: ChildProcess, graceMs = 5000): Promise<void> {
  return new Promise((resolve) => {
    const done = () => {
      clearTimeout(timer);
      // Its forks may still be alive after the leader exited on SIGTERM.
      signalGroup(child, "SIGKILL");
      resolve();
    };
    const timer = setTimeout(() => signalGroup(child, "SIGKILL"), graceMs);
    if (exited(child)) return done();
    child.once("exit", done);
    signalGroup(child, "SIGTERM");
  });
}

export interface Supervisor {
  current(): ChildProcess | null;
  /** No more restarts; SIGTERM to the child's group, SIGKILL after graceMs; resolves once it has exited. */
  stop(graceMs?: number): Promise<void>;
  /** A second stop request during stop(): SIGTERM to the group again (the agent then exits at once). */
  hurry(): void;
}

export interface SuperviseOptions {
  name: string;
  log: (m: string) => void;
  /** First restart delay; doubles per crash up to maxDelayMs, back to the start after a calm minute. */
  baseDelayMs?: number;
  maxDelayMs?: number;
  calmMs?: number;
  /** Exit codes that mean "do not restart" (the agent: 2 bad arguments or state, 3 credential refused). */
  permanent?: readonly number[];
}

/**
 * Keeps a process running: starts it, and after an unexpected exit starts it again with backoff.
 * `start` may wait (for a lock, say) and is aborted by stop(); a child it returns after stop() is
 * stopped at once, so nothing outlives the supervisor.
 */
export function supervise(start: (signal: AbortSignal) => Promise<ChildProcess | null>, opts: SuperviseOptions): Supervisor {
  const base = opts.baseDelayMs ?? 1000;
  const max = opts.maxDelayMs ?? 60_000;
  const calm = opts.calmMs ?? 60_000;
  let child: ChildProcess | null = null;
  let stopped = false;
  let delay = base;
  let timer: NodeJS.Timeout | null = null;
  const stopper = new AbortController();
  let launching: Promise<void> | null = null;

  const launch = async () => {
    timer = null;
    if (stopped) return;
    let c: ChildProcess | null;
    try {
      c = await start(stopper.signal);
    } catch (err) {
      if (stopped) return;
      opts.log(`${opts.name} could not start: ${err instanceof Error ? err.message : String(err)}`);
      c = null;
      schedule();
      return;
    }
    if (!c) return;
    child = c;
    // Started while stop() waited for this launch: stop() stops it.
    if (stopped) return;
    const startedAt = Date.now();
    c.once("exit", (code, signal) => {
      if (stopped) return;
      child = null;
      if (Date.now() - startedAt > calm) delay = base;
      const how = code !== null ? `exit ${code}` : `signal ${signal}`;
      if (code !== null && opts.permanent?.includes(code)) {
        opts.log(`${opts.name} exited (${how}); not restarting it: see its last message above`);
        return;
      }
      opts.log(`${opts.name} exited (${how}); restarting it in ${(delay / 1000).toFixed(1)} s`);
      schedule();
    });
  };
  const schedule = () => {
    if (stopped) return;
    timer = setTimeout(() => void (launching = launch()), delay);
    delay = Math.min(delay * 2, max);
  };
  launching = launch();
  return {
    current: () => child,
    async stop(graceMs) {
      stopped = true;
      if (timer) clearTimeout(timer);
      stopper.abort();
      await launching;
      if (child) await stopProcessGroup(child, graceMs);
    },
    hurry() {
      if (child && !exited(child)) signalGroup(child, "SIGTERM");
    },
  };
}
