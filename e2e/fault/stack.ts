// One complete Probebook per fault test — its own embedded PostgreSQL, database, `next start`,
// operator token, agent tap and real agent processes — so a test can stop, kill and restart any
// part without touching the shared e2e server or another test. Everything it starts is
// recorded here and torn down by dispose(), which never throws and is safe after a failure.
import { execFile, spawn, type ChildProcess } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { promisify } from "node:util";
import { request as playwrightRequest, type APIRequestContext } from "@playwright/test";
import pg from "pg";
import { startEmbeddedPostgres, withDatabase, type EmbeddedServer } from "../../lib/runtime/embedded-postgres";
import { serveCommand } from "../../lib/runtime/next-build";
import { adminQuery, quoteIdent } from "../../lib/runtime/pg-admin";
import { migrateDeploy } from "../../lib/runtime/prisma-cli";
import { startAgent, type AgentHandle } from "../agent/agent-process";
import { AgentTap } from "./agent-tap";

const execFileP = promisify(execFile);
const root = path.resolve(__dirname, "..", "..");

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Pids of every descendant of pid (from /proc), deepest last. */
export function descendants(pid: number): number[] {
  const parentOf = new Map<number, number>();
  for (const name of fs.readdirSync("/proc")) {
    if (!/^\d+$/.test(name)) continue;
    try {
      const stat = fs.readFileSync(`/proc/${name}/stat`, "utf8");
      // "pid (comm) state ppid …": comm may hold spaces and parentheses, so split after the last ")".
      const ppid = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[1]);
      parentOf.set(Number(name), ppid);
    } catch {
      // exited while we looked
    }
  }
  const out: number[] = [];
  const walk = (p: number) => {
    for (const [child, parent] of parentOf) {
      if (parent === p) {
        out.push(child);
        walk(child);
      }
    }
  };
  walk(pid);
  return out;
}

/** Whether pid runs (a zombie — dead, not yet reaped by its new parent — does not count). */
export function alive(pid: number): boolean {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    return stat.slice(stat.lastIndexOf(")") + 2)[0] !== "Z";
  } catch {
    return false;
  }
}

function kill(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(pid, signal);
  } catch {
    // already gone
  }
}

function exited(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}

function waitExit(child: ChildProcess, ms: number): Promise<boolean> {
  if (exited(child)) return Promise.resolve(true);
  return new Promise((resolve) => {
    const t = setTimeout(() => resolve(false), ms);
    child.once("exit", () => {
      clearTimeout(t);
      resolve(true);
    });
  });
}

const SNAPSHOT_SKIP = new Set([".next", ".git", ".data", "test-results", "playwright-report"]);
let appRootDir: string | null = null;

/** Newest mtime of the files under dir, leaving out `skip` (a directory). */
function newestMtime(dir: string, skip: string): number {
  let newest = 0;
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name);
    if (p === skip) continue;
    if (e.isDirectory()) newest = Math.max(newest, newestMtime(p, skip));
    else if (e.isFile()) newest = Math.max(newest, fs.statSync(p).mtimeMs);
  }
  return newest;
}

/**
 * The directory the tests' `next start` serves: the project through symlinks, with a private
 * copy of the current build (.next without its cache). A scenario stops and restarts the app and
 * must get the same app back; a `next build` run meanwhile by anyone else in the checkout would
 * otherwise swap .next under it (or leave none for a moment). Made once per worker.
 */
export async function appRoot(): Promise<string> {
  if (appRootDir) return appRootDir;
  const next = path.join(root, ".next");
  const cache = path.join(next, "cache");
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pb-fault-app-"));
  for (const e of fs.readdirSync(root)) if (!SNAPSHOT_SKIP.has(e)) fs.symlinkSync(path.join(root, e), path.join(dir, e));
  const deadline = Date.now() + 300_000;
  for (;;) {
    try {
      // A build writes files for a while, BUILD_ID among the last: copy only a build that has
      // been quiet for 5 s and check nothing changed while we copied.
      const quiet = newestMtime(next, cache);
      if (fs.existsSync(path.join(next, "BUILD_ID")) && Date.now() - quiet > 5000) {
        const copy = path.join(dir, ".next");
        fs.rmSync(copy, { recursive: true, force: true });
        fs.cpSync(next, copy, { recursive: true, verbatimSymlinks: true, filter: (src) => src !== cache });
        if (newestMtime(next, cache) === quiet) {
          appRootDir = dir;
          return dir;
        }
      }
    } catch {
      // files vanished under a rebuild: try again
    }
    if (Date.now() > deadline) {
      fs.rmSync(dir, { recursive: true, force: true });
      throw new Error("no stable build in .next to serve (is a `next build` running?)");
    }
    await sleep(2000);
  }
}

export function removeAppRoot(): void {
  if (appRootDir) fs.rmSync(appRootDir, { recursive: true, force: true });
  appRootDir = null;
}

/** A real agent (probes/agent/main.ts under tsx) and the pids it runs as. */
export interface FaultAgent extends AgentHandle {
  /**
   * kill -9 of the agent process (started with `node --import tsx`, so the child is the agent
   * itself). The probe is not touched: it loses its terminal with the agent, as in a real crash.
   */
  kill9(): Promise<{ agentPids: number[]; probePids: number[] }>;
}

export interface StackOptions {
  label: string;
  appPort: number;
  tapPort: number;
}

export class FaultStack {
  readonly dir: string;
  readonly pgDir: string;
  readonly sessionSecret = crypto.randomBytes(32).toString("base64url");
  pg: EmbeddedServer | null = null;
  pgPort = 0;
  adminUrl = "";
  dbUrl = "";
  dbName = "";
  token = "";
  app: ChildProcess | null = null;
  appLog = "";
  api!: APIRequestContext;
  readonly tap: AgentTap;
  readonly agents: FaultAgent[] = [];
  private readonly cleanups: (() => Promise<void> | void)[] = [];
  private readonly strays = new Set<number>();

  /** Stacks not yet disposed — also one whose create() a test timeout cut short. */
  static readonly live = new Set<FaultStack>();

  private constructor(readonly opts: StackOptions) {
    FaultStack.live.add(this);
    this.dir = fs.mkdtempSync(path.join(os.tmpdir(), `pb-fault-${opts.label}-`));
    // The embedded server runs as the `postgres` user when we are root: it must reach its dir.
    fs.chmodSync(this.dir, 0o755);
    this.pgDir = path.join(this.dir, "postgres");
    this.tap = new AgentTap(opts.tapPort, opts.appPort);
  }

  get appUrl(): string {
    return `http://127.0.0.1:${this.opts.appPort}`;
  }

  /** PostgreSQL, a migrated database, an operator token, the app and the tap — no agent yet. */
  static async create(opts: StackOptions): Promise<FaultStack> {
    const s = new FaultStack(opts);
    try {
      await s.startPostgres();
      s.dbName = `probebook_fault_${opts.label.replace(/\W/g, "_")}_${Date.now().toString(36)}`;
      await adminQuery(s.adminUrl, `CREATE DATABASE ${quoteIdent(s.dbName)}`);
      s.dbUrl = withDatabase(s.adminUrl, s.dbName);
      await migrateDeploy(s.dbUrl);
      s.token = await s.operatorToken();
      await s.startApp();
      await s.tap.start();
      s.cleanups.push(() => s.tap.stop());
      s.api = await playwrightRequest.newContext({ baseURL: s.appUrl, extraHTTPHeaders: { Authorization: `Bearer ${s.token}` } });
      s.cleanups.push(() => s.api.dispose());
      return s;
    } catch (err) {
      await s.dispose();
      throw err;
    }
  }

  // ---- PostgreSQL ---------------------------------------------------------------------------

  /** Starts the cluster (initialised on first use) on the port it had before, if any. */
  async startPostgres(): Promise<void> {
    const server = await startEmbeddedPostgres({ dir: this.pgDir, port: this.pgPort || undefined });
    if (this.pgPort && server.port !== this.pgPort) {
      await server.stop();
      throw new Error(`PostgreSQL came back on port ${server.port}, not ${this.pgPort}: the port was taken meanwhile`);
    }
    this.pg = server;
    this.pgPort = server.port;
    this.adminUrl = server.adminUrl;
  }

  /** Fast shutdown (SIGINT): open connections are terminated, as in a database restart. */
  async stopPostgres(): Promise<void> {
    const server = this.pg;
    this.pg = null;
    await server?.stop();
  }

  /** One statement on a short-lived connection to the stack's database. */
  async query<T extends pg.QueryResultRow>(sql: string, params: unknown[] = []): Promise<T[]> {
    const client = new pg.Client({ connectionString: this.dbUrl });
    await client.connect();
    try {
      return (await client.query<T>(sql, params)).rows;
    } finally {
      await client.end();
    }
  }

  /** The seqs the server stored for a run, ascending. */
  async storedSeqs(runId: string): Promise<number[]> {
    const rows = await this.query<{ seq: number }>("SELECT seq FROM run_log_chunks WHERE run_id = $1::uuid ORDER BY seq", [runId]);
    return rows.map((r) => r.seq);
  }

  async storedTelemetryTimes(runId: string): Promise<number[]> {
    const rows = await this.query<{ t: number }>("SELECT t FROM run_telemetry WHERE run_id = $1::uuid ORDER BY t", [runId]);
    return rows.map((r) => r.t);
  }

  private async operatorToken(): Promise<string> {
    const email = `fault-${this.opts.label}@example.com`;
    const env = { ...process.env, DATABASE_URL: this.dbUrl, PROBEBOOK_DATA_DIR: path.join(this.dir, "data") };
    const admin = (args: string[]) =>
      execFileP(process.execPath, [path.join(root, "node_modules", "tsx", "dist", "cli.mjs"), "scripts/admin.ts", ...args], { cwd: root, env });
    await admin(["user", "create", "--email", email, "--password", crypto.randomBytes(12).toString("hex"), "--role", "operator"]);
    const { stdout } = await admin(["token", "create", "--email", email, "--name", "fault"]);
    const token = stdout.trim();
    if (!token.startsWith("pbt_")) throw new Error(`admin token create printed no token: ${stdout}`);
    return token;
  }

  // ---- the app ------------------------------------------------------------------------------

  /** `next start` on the stack's port and database; resolves once /api/health says the database answers. */
  async startApp(): Promise<void> {
    if (this.app && !exited(this.app)) throw new Error("the app is already running");
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      DATABASE_URL: this.dbUrl,
      SESSION_SECRET: this.sessionSecret,
      NODE_ENV: "production",
      NEXT_TELEMETRY_DISABLED: "1",
      PROBEBOOK_DATA_DIR: path.join(this.dir, "data"),
      PORT: String(this.opts.appPort),
      // Plain text in appLog, for the figures and failure attachments.
      NO_COLOR: "1",
      FORCE_COLOR: "0",
    };
    delete env.NODE_OPTIONS;
    // Its own process group, so that dispose() can end whatever next start may have forked.
    const cwd = await appRoot();
    const child = spawn(process.execPath, serveCommand({ listenHost: "127.0.0.1" }), {
      cwd,
      env,
      detached: true,
      stdio: ["ignore", "pipe", "pipe"],
    });
    const mark = `\n--- next start (pid ${child.pid}) at ${new Date().toISOString()}\n`;
    this.appLog += mark;
    child.stdout?.on("data", (d: Buffer) => (this.appLog += d.toString()));
    child.stderr?.on("data", (d: Buffer) => (this.appLog += d.toString()));
    this.app = child;
    const deadline = Date.now() + 60_000;
    while (Date.now() < deadline) {
      if (exited(child)) throw new Error(`next start exited (${child.exitCode ?? child.signalCode}):\n${this.appLog.slice(-3000)}`);
      try {
        const r = await fetch(`${this.appUrl}/api/health`, { signal: AbortSignal.timeout(2000) });
        if (r.status === 200) return;
      } catch {
        // not listening yet
      }
      await sleep(200);
    }
    throw new Error(`next start did not become healthy within 60 s:\n${this.appLog.slice(-3000)}`);
  }

  /** What the app logged as uncaught errors: the message line and the first frames under it. */
  uncaughtErrors(): string[] {
    const lines = this.appLog.split("\n");
    const out: string[] = [];
    lines.forEach((l, i) => {
      if (/uncaughtException|unhandledRejection/.test(l)) {
        out.push(
          lines
            .slice(i, i + 4)
            // eslint-disable-next-line no-control-regex -- colour escapes, should any get through
            .map((x) => x.replace(/\u001b\[[0-9;]*m/g, "").trim())
            .join(" | "),
        );
      }
    });
    return out;
  }

  /** Stops the app with `signal` and waits for it to exit (SIGKILL to its group after 15 s). */
  async stopApp(signal: NodeJS.Signals = "SIGTERM"): Promise<{ exitMs: number; forced: boolean }> {
    const child = this.app;
    this.app = null;
    if (!child || exited(child)) return { exitMs: 0, forced: false };
    const t0 = Date.now();
    kill(child.pid!, signal);
    let forced = false;
    if (!(await waitExit(child, 15_000))) {
      forced = true;
      kill(-child.pid!, "SIGKILL");
      await waitExit(child, 5_000);
    }
    // Anything next start forked goes with it.
    kill(-child.pid!, "SIGKILL");
    return { exitMs: Date.now() - t0, forced };
  }

  // ---- agents -------------------------------------------------------------------------------

  /** A host registered through the API; its registration token is valid once. */
  async createHost(name: string): Promise<{ id: string; registrationToken: string }> {
    const r = await this.api.post("/api/hosts", { data: { name } });
    if (r.status() !== 201) throw new Error(`POST /api/hosts answered ${r.status()}: ${await r.text()}`);
    return (await r.json()) as { id: string; registrationToken: string };
  }

  /**
   * A real agent talking to the app through the tap. The state dir lives in the stack's temp dir
   * (pass the previous one to restart an agent on its credential and spool).
   */
  startAgent(opts: { token?: string; stateDir?: string; transport?: "auto" | "socket" | "http" } = {}): FaultAgent {
    const stateDir = opts.stateDir ?? path.join(this.dir, `agent-state-${this.agents.length}`);
    const scratch = path.join(this.dir, "scratch");
    fs.mkdirSync(scratch, { recursive: true });
    const handle = startAgent({ server: this.tap.url, token: opts.token, stateDir, scratch, allow: ["/dev/shm"], transport: opts.transport });
    const strays = this.strays;
    const agent: FaultAgent = {
      ...handle,
      async kill9() {
        const agentPid = handle.child.pid!;
        // Below the agent: node-pty's probe, which must die with it.
        const probePids = descendants(agentPid);
        const agentPids = [agentPid];
        for (const p of probePids) strays.add(p);
        kill(agentPid, "SIGKILL");
        await waitExit(handle.child, 5_000);
        return { agentPids, probePids };
      },
    };
    this.agents.push(agent);
    return agent;
  }

  /** Waits until the agent's log says it registered or signed in; returns the host id. */
  async agentReady(agent: FaultAgent, timeoutMs = 30_000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    while (Date.now() < deadline) {
      const m = /(?:registered|signed in) as host "[^"]*" \(([0-9a-f-]{36})\)/.exec(agent.output());
      if (m) return m[1]!;
      if (exited(agent.child)) break;
      await sleep(100);
    }
    throw new Error(`the agent did not sign in:\n${agent.output().slice(-3000)}`);
  }

  private async stopAgent(agent: FaultAgent): Promise<void> {
    if (exited(agent.child)) return;
    const tree = descendants(agent.child.pid!);
    kill(agent.child.pid!, "SIGTERM");
    if (!(await waitExit(agent.child, 12_000))) kill(agent.child.pid!, "SIGKILL");
    await waitExit(agent.child, 3_000);
    for (const p of tree) kill(p, "SIGKILL");
  }

  // ---- runs ---------------------------------------------------------------------------------

  async createRun(hostId: string, probe: string, params: Record<string, unknown>): Promise<string> {
    const r = await this.api.post("/api/runs", { data: { hostId, probe, params } });
    if (r.status() !== 201) throw new Error(`POST /api/runs answered ${r.status()}: ${await r.text()}`);
    return ((await r.json()) as { id: string }).id;
  }

  async runStatus(runId: string): Promise<{ status: string; errorMessage?: string | null; error?: string | null } & Record<string, unknown>> {
    const r = await this.api.get(`/api/runs/${runId}`);
    if (r.status() !== 200) throw new Error(`GET /api/runs/${runId} answered ${r.status()}`);
    return (await r.json()) as { status: string };
  }

  async runLog(runId: string): Promise<string> {
    const r = await this.api.get(`/api/runs/${runId}/log`);
    if (r.status() !== 200) throw new Error(`GET /api/runs/${runId}/log answered ${r.status()}`);
    return r.text();
  }

  /** Polls the run until its status is one of `statuses`; returns the last status seen. */
  async waitForStatus(runId: string, statuses: string[], timeoutMs: number): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    let last = "";
    while (Date.now() < deadline) {
      try {
        last = (await this.runStatus(runId)).status;
        if (statuses.includes(last)) return last;
      } catch {
        // the app may be restarting
      }
      await sleep(250);
    }
    return last;
  }

  // ---- teardown -----------------------------------------------------------------------------

  /** Tears everything down in reverse order of dependency; reports problems, never throws. */
  async dispose(): Promise<string[]> {
    const problems: string[] = [];
    const step = async (what: string, f: () => Promise<unknown> | unknown) => {
      try {
        await f();
      } catch (err) {
        problems.push(`${what}: ${err instanceof Error ? err.message : String(err)}`);
      }
    };
    for (const a of this.agents) await step("agent", () => this.stopAgent(a));
    // Probes orphaned by a kill -9 should have died with their terminal; make sure.
    for (const p of this.strays) if (alive(p)) kill(p, "SIGKILL");
    for (const c of this.cleanups.reverse()) await step("cleanup", c);
    await step("next start", () => this.stopApp("SIGTERM"));
    if (this.pg && this.dbName) await step("drop database", () => adminQuery(this.adminUrl, `DROP DATABASE IF EXISTS ${quoteIdent(this.dbName)} WITH (FORCE)`));
    await step("postgres", () => this.stopPostgres());
    await step("temp dir", () => fs.rmSync(this.dir, { recursive: true, force: true }));
    FaultStack.live.delete(this);
    return problems;
  }
}

// Last resort if the worker exits with a stack still up (embedded-postgres stops its own
// servers on exit; `next start` runs in its own process group and would outlive us).
process.on("exit", () => {
  for (const st of FaultStack.live) {
    for (const a of st.agents) if (a.child.pid) for (const p of [...descendants(a.child.pid), a.child.pid]) kill(p, "SIGKILL");
    if (st.app?.pid) kill(-st.app.pid, "SIGKILL");
  }
});

