import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { credentialPath, loadCredential, normaliseServer, saveCredential } from "../../probes/agent/credential-store";
import { ensureLocalHost, isCurrentCredential, issueLocalRegistration, type LocalHost } from "../server/hosts/local-host";
import { machineId as readMachineId } from "./machine-id";
import { projectRoot } from "./paths";
import { signalGroup, supervise, type Supervisor } from "./supervise";

/** How long a stop lets the local agent's running probe finish (its --stop-grace). */
export const LOCAL_AGENT_STOP_GRACE_SEC = 60;
/** How long stopping `npm start` waits for the local agent: the grace, the flush of its output (10 s), a margin. */
export const LOCAL_AGENT_STOP_MS = (LOCAL_AGENT_STOP_GRACE_SEC + 15) * 1000;
/** How often an instance that does not run the local agent looks whether it may, and the runner checks its lock. */
export const LOCK_CHECK_MS = 15_000;

export interface LocalAgentOptions {
  port: number;
  dataDir: string;
  log: (m: string) => void;
  /** Default: DATABASE_URL. */
  databaseUrl?: string;
  /** Default: lib/runtime/machine-id.ts. */
  machineId?: string;
  lockCheckMs?: number;
  /** Starts the agent process (tests pass a stand-in); default: probes/agent/main.ts under `node --import tsx`. */
  spawnAgent?: (args: string[], env: NodeJS.ProcessEnv) => ChildProcess;
  /** Supervisor restart delay (tests shorten it). */
  restartDelayMs?: number;
}

/**
 * Registers this machine as a host and runs an agent for it, so a new user can launch a first
 * run right after `npm start`. One host per machine, whatever the number of app instances on it
 * sharing the database: it is found by the machine's id, and only the instance holding a
 * PostgreSQL advisory lock on that id runs its agent; the others look every LOCK_CHECK_MS and
 * take over when the holder goes away. Allowed: a scratch dir in the data dir (the disk) and
 * /dev/shm (memory). PROBEBOOK_LOCAL_AGENT=0 turns it off.
 */
export function startLocalAgent(opts: LocalAgentOptions): Supervisor | null {
  if (process.env.PROBEBOOK_LOCAL_AGENT === "0") return null;
  const machine = opts.machineId ?? readMachineId();
  const lock = new MachineLock(opts.databaseUrl ?? process.env.DATABASE_URL ?? "", machine, opts.lockCheckMs ?? LOCK_CHECK_MS, opts.log);
  const supervisor = supervise((signal) => launch(opts, machine, lock, signal), {
    name: "the local agent",
    log: opts.log,
    // Not after exit 2 (bad arguments, state dir taken by another agent), 3 (credential refused)
    // or 4 (version refused): a restart cannot fix those.
    permanent: [2, 3, 4],
    ...(opts.restartDelayMs !== undefined ? { baseDelayMs: opts.restartDelayMs } : {}),
  });
  return {
    current: () => supervisor.current(),
    hurry: () => supervisor.hurry(),
    async stop(graceMs) {
      await supervisor.stop(graceMs);
      // Only once the agent has exited: the next instance's agent must not overlap with it.
      await lock.release();
    },
  };
}

async function launch(opts: LocalAgentOptions, machine: string, lock: MachineLock, signal: AbortSignal): Promise<ChildProcess | null> {
  if (!(await lock.acquire(signal))) return null;
  const stateDir = path.join(opts.dataDir, "agent");
  const scratch = path.join(opts.dataDir, "scratch");
  fs.mkdirSync(scratch, { recursive: true });
  const allow = [scratch, ...(fs.existsSync("/dev/shm") && fs.statSync("/dev/shm").isDirectory() ? ["/dev/shm"] : [])];
  const server = `http://127.0.0.1:${opts.port}`;
  const { host, token } = await credentialFor({ stateDir, server, machine });
  if (signal.aborted) return null;
  const args = ["probes/agent/main.ts", "--server", server, "--allow", allow.join(","), "--state-dir", stateDir, "--stop-grace", String(LOCAL_AGENT_STOP_GRACE_SEC)];
  const env = { ...process.env, ...(token ? { PROBEBOOK_AGENT_TOKEN: token } : {}) };
  // `node --import tsx`, not tsx's CLI: that one is a parent process relaying every signal to
  // the agent, which then hears each stop twice (see probes/agent/stop-signals.ts).
  const child =
    opts.spawnAgent?.(args, env) ??
    spawn(process.execPath, ["--import", "tsx", ...args], { cwd: projectRoot, env, stdio: ["ignore", "inherit", "inherit"], detached: true });
  lock.watch(child);
  opts.log(`local agent started for host "${host.name}" (allowed: ${allow.join(", ")})`);
  return child;
}

/**
 * The credential this instance's agent starts with: its stored one while that is still the
 * host's (the server address is rewritten when PORT changed), otherwise a fresh registration
 * token that leaves the current credential valid until the new agent registers.
 */
async function credentialFor(o: { stateDir: string; server: string; machine: string }): Promise<{ host: LocalHost; token: string | null }> {
  let stored: ReturnType<typeof loadCredential> = null;
  try {
    stored = loadCredential(o.stateDir);
  } catch {
    // damaged: registered again below
  }
  const host = await ensureLocalHost({ machineId: o.machine, name: `${os.hostname()} (this machine)`, previousHostId: stored?.hostId ?? null });
  if (stored && stored.hostId === host.id && (await isCurrentCredential(host.id, stored.credential))) {
    if (normaliseServer(stored.server) !== normaliseServer(o.server)) saveCredential(o.stateDir, { ...stored, server: o.server });
    return { host, token: null };
  }
  fs.rmSync(credentialPath(o.stateDir), { force: true });
  return { host, token: await issueLocalRegistration(host.id) };
}

/**
 * A PostgreSQL session advisory lock on the machine id, on a connection of its own: held while
 * this instance runs the local agent, freed by PostgreSQL when the instance (or its connection)
 * goes away.
 */
class MachineLock {
  private client: pg.Client | null = null;
  private held = false;
  private toldWaiting = false;
  private watcher: NodeJS.Timeout | null = null;

  constructor(
    private readonly url: string,
    private readonly machine: string,
    private readonly checkMs: number,
    private readonly log: (m: string) => void,
  ) {}

  /** Resolves true once held (at once when already held), false when `signal` aborts first. */
  async acquire(signal: AbortSignal): Promise<boolean> {
    while (!signal.aborted) {
      try {
        if (this.held && (await this.alive())) return true;
        const client = await this.connect();
        const { rows } = await client.query<{ ok: boolean }>("SELECT pg_try_advisory_lock(hashtextextended($1, 0)) AS ok", [`probebook:local-agent:${this.machine}`]);
        if (rows[0]?.ok) {
          this.held = true;
          if (this.toldWaiting) this.log("the other instance's local agent has stopped: this instance runs it now");
          this.toldWaiting = false;
          return true;
        }
        if (!this.toldWaiting) this.log("another Probebook instance on this machine runs the local agent; this one takes over when it stops");
        this.toldWaiting = true;
      } catch (err) {
        this.log(`the local agent's lock: ${err instanceof Error ? err.message : String(err)}; trying again`);
        await this.drop();
      }
      await new Promise<void>((resolve) => {
        const t = setTimeout(resolve, this.checkMs);
        signal.addEventListener("abort", () => (clearTimeout(t), resolve()), { once: true });
      });
    }
    return false;
  }

  /**
   * While the agent runs, checks the lock's connection: lost (a database restart), the lock is
   * gone too and another instance may start an agent, so this one is stopped (gracefully) and the
   * supervisor's restart waits for the lock again.
   */
  watch(child: ChildProcess): void {
    if (this.watcher) clearInterval(this.watcher);
    const watcher = setInterval(() => {
      void this.alive().then(async (ok) => {
        if (ok || child.exitCode !== null || child.signalCode !== null) return;
        this.log("lost the database connection that holds the local agent's lock: stopping the local agent, to run it again once the lock is held");
        await this.drop();
        signalGroup(child, "SIGTERM");
      });
    }, this.checkMs);
    watcher.unref();
    this.watcher = watcher;
    child.once("exit", () => clearInterval(watcher));
  }

  async release(): Promise<void> {
    if (this.watcher) clearInterval(this.watcher);
    if (this.held) await this.client?.query("SELECT pg_advisory_unlock_all()").catch(() => undefined);
    await this.drop();
  }

  private async alive(): Promise<boolean> {
    if (!this.client || !this.held) return false;
    try {
      await this.client.query("SELECT 1");
      return true;
    } catch {
      return false;
    }
  }

  private async connect(): Promise<pg.Client> {
    if (this.client) return this.client;
    const client = new pg.Client({ connectionString: this.url, application_name: "probebook local-agent lock" });
    // A dropped connection must not crash the app: the next check notices.
    client.on("error", () => undefined);
    await client.connect();
    this.client = client;
    return client;
  }

  private async drop(): Promise<void> {
    const client = this.client;
    this.client = null;
    this.held = false;
    await client?.end().catch(() => undefined);
  }
}
