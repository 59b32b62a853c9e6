// Server lifecycle: the production server of scripts/e2e-server.ts (fresh database, seed,
// scripts/serve.ts) on the bench's own port and data dir, and optionally a second instance on the
// same database to show that live output fans out through PostgreSQL, not process memory; or a
// cluster (bench/fleet.ts): one database and N instances, each restartable on its own.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { readDatabaseUrlFile, writeDatabaseUrlFile } from "../../lib/runtime/database-url-file";
import { buildStaleReason, runNextBuild, serveCommand } from "../../lib/runtime/next-build";
import { ensureSessionSecret } from "../../lib/runtime/session-secret";
import { createTestDatabase } from "../../lib/runtime/test-database";
import { seedDatabase } from "../../prisma/seed";
import { onCleanup } from "./cleanup";
import { commandLine, descendants } from "./proc";

export const root = path.resolve(__dirname, "..", "..");
export const tsxCli = path.join(root, "node_modules", "tsx", "dist", "cli.mjs");

export interface RunningServer {
  url: string;
  pid: number;
  /** The server's output so far (last lines), for error messages. */
  logTail(): string;
  stop(): Promise<void>;
}

export interface MainServer extends RunningServer {
  databaseUrl: string;
  sessionSecret: string;
  /** What was served: null when .next was current, else why it was stale and what the bench did. */
  build: { stale: string | null; action: "served as is" | "rebuilt" | null; buildId: string };
}

/** Keeps the last lines of a child's output: enough to explain a failure, never the whole log. */
function capture(child: ChildProcess, keep = 60): () => string {
  const lines: string[] = [];
  const add = (d: Buffer) => {
    lines.push(...d.toString().split("\n").filter(Boolean));
    if (lines.length > keep) lines.splice(0, lines.length - keep);
  };
  child.stdout?.on("data", add);
  child.stderr?.on("data", add);
  return () => lines.join("\n");
}

function portInUse(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect({ port, host: "127.0.0.1" });
    socket.once("connect", () => (socket.destroy(), resolve(true)));
    socket.once("error", () => resolve(false));
  });
}

async function waitForHealth(url: string, child: ChildProcess, tail: () => string, timeoutMs: number): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null || child.signalCode !== null) {
      throw new Error(`the server exited before it was healthy (exit ${child.exitCode ?? child.signalCode}):\n${tail()}`);
    }
    try {
      const res = await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(2000) });
      if (res.ok) return;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 300));
  }
  throw new Error(`${url}/api/health did not answer within ${timeoutMs / 1000} s:\n${tail()}`);
}

/** SIGTERM, then wait for the exit (SIGKILL after graceMs, so the bench never hangs on a stop). */
function stopChild(child: ChildProcess, graceMs: number): Promise<void> {
  return new Promise((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null) return resolve();
    const t = setTimeout(() => child.kill("SIGKILL"), graceMs);
    child.once("exit", () => (clearTimeout(t), resolve()));
    child.kill("SIGTERM");
  });
}

/**
 * Starts scripts/e2e-server.ts. It would run `next build` when .next is older than the sources;
 * that takes minutes on 2 vCPUs and replaces the .next that other servers of this checkout may be
 * serving, so with a stale build the bench needs to be told: rebuild (--build, through
 * e2e-server) or serve the existing build as it is (--stale-build: e2e-server's --serve-existing-build).
 */
export async function startMainServer(opts: {
  port: number;
  dataDir: string;
  /** What to do with a stale build; default: "build" when allowBuild, else "refuse". */
  ifStale?: "refuse" | "build" | "serve";
  /** The older form of ifStale: "build" (true) or "refuse"; bench/compare-page.ts passes it. */
  allowBuild?: boolean;
}): Promise<MainServer> {
  const ifStale = opts.ifStale ?? (opts.allowBuild ? "build" : "refuse");
  const stale = buildStaleReason();
  if (stale && ifStale === "refuse") {
    throw new Error(
      `the production build is stale (${stale}). Run \`npm run build\` first, or pass --build (e2e-server rebuilds .next, ` +
        `which other servers of this checkout may be serving) or --stale-build (measure the existing build as it is)`,
    );
  }
  const args = ["scripts/e2e-server.ts", ...(stale && ifStale === "serve" ? ["--serve-existing-build"] : [])];
  if (await portInUse(opts.port)) throw new Error(`port ${opts.port} is already in use: is another bench running?`);
  const url = `http://127.0.0.1:${opts.port}`;
  // The local tsx CLI is what `npx tsx` runs, minus the npm process in between (signals reach it directly).
  const child = spawn(process.execPath, [tsxCli, ...args], {
    cwd: root,
    env: { ...process.env, PORT: String(opts.port), PROBEBOOK_DATA_DIR: opts.dataDir },
    stdio: ["ignore", "pipe", "pipe"],
  });
  const tail = capture(child);
  let pgDir: string | null = null;
  // e2e-server stops `next` and drops its database (and the embedded PostgreSQL) on SIGTERM.
  const stop = onCleanup(`server on port ${opts.port}`, async () => {
    await stopChild(child, 30_000);
    await removeLeftPgDir(pgDir);
  });
  await waitForHealth(url, child, tail, stale && ifStale === "build" ? 600_000 : 180_000);
  pgDir = embeddedPgDir(child.pid!);
  const databaseUrl = readDatabaseUrlFile(opts.dataDir);
  if (!databaseUrl) throw new Error(`the server is up but ${opts.dataDir}/database-url is missing`);
  // As e2e-server itself resolves it (lib/runtime/session-secret.ts): the env, else the database's.
  const sessionSecret = await ensureSessionSecret(databaseUrl);
  const buildId = fs.readFileSync(path.join(root, ".next", "BUILD_ID"), "utf8").trim();
  const build = { stale, action: stale ? (ifStale === "serve" ? ("served as is" as const) : ("rebuilt" as const)) : null, buildId };
  return { url, pid: child.pid!, databaseUrl, sessionSecret, build, logTail: tail, stop };
}

/**
 * The app processes in a server's tree: scripts/serve.ts (Node's HTTP server with Next.js inside),
 * whose process name is plain `node`, so they are found by their command line.
 */
export function appProcesses(pid: number): number[] {
  return [pid, ...descendants(pid)].filter((p) => commandLine(p).includes("scripts/serve.ts"));
}

/** The temp dir of the embedded PostgreSQL this server tree runs (`postgres -D <dir>/pg`), if any. */
function embeddedPgDir(pid: number): string | null {
  for (const p of descendants(pid)) {
    const m = / -D (\S+)\/pg(?: |$)/.exec(commandLine(p));
    if (m?.[1] && path.basename(m[1]).startsWith("probebook-") && path.dirname(m[1]) === os.tmpdir()) return m[1];
  }
  return null;
}

/**
 * createTestDatabase removes its temp dir on dispose, but PostgreSQL may still be writing into it
 * as it shuts down (rmSync then fails and the dir stays): remove what is left once it has stopped.
 */
async function removeLeftPgDir(dir: string | null): Promise<void> {
  if (!dir || !fs.existsSync(dir)) return;
  // Only if the server had to be killed is its PostgreSQL still up: stop that one (fast shutdown).
  const postmaster = () =>
    fs
      .readdirSync("/proc")
      .filter((n) => /^\d+$/.test(n))
      .map(Number)
      .find((pid) => commandLine(pid).includes(` -D ${dir}/pg`));
  const left = postmaster();
  if (left !== undefined) {
    console.error(`[bench] stopping the embedded PostgreSQL (pid ${left}) the server left running`);
    process.kill(left, "SIGINT");
    for (let i = 0; i < 100 && postmaster() !== undefined; i++) await new Promise((r) => setTimeout(r, 100));
  }
  console.error(`[bench] removing the embedded PostgreSQL dir the server left behind: ${dir}`);
  fs.rmSync(dir, { recursive: true, force: true, maxRetries: 5, retryDelay: 200 });
}

/** An app instance the bench can restart (its agents' sockets close; they reconnect when it is back). */
export interface Instance extends RunningServer {
  port: number;
  /** Stops the process (SIGTERM: it closes its agent sockets with 1001) and starts it again on the same port. */
  restart(): Promise<void>;
}

/** An app instance: scripts/serve.ts as e2e-server starts it, on the given database and secret. */
export async function startInstance(opts: { port: number; dataDir: string; databaseUrl: string; sessionSecret: string }): Promise<Instance> {
  if (await portInUse(opts.port)) throw new Error(`port ${opts.port} is already in use`);
  const url = `http://127.0.0.1:${opts.port}`;
  const spawnServe = () => {
    const child = spawn(process.execPath, serveCommand(), {
      cwd: root,
      env: {
        ...process.env,
        PORT: String(opts.port),
        PROBEBOOK_DATA_DIR: opts.dataDir,
        DATABASE_URL: opts.databaseUrl,
        SESSION_SECRET: opts.sessionSecret,
        NEXT_TELEMETRY_DISABLED: "1",
        NODE_ENV: "production",
      },
      stdio: ["ignore", "pipe", "pipe"],
    });
    return { child, tail: capture(child) };
  };
  let current = spawnServe();
  const stop = onCleanup(`app instance on port ${opts.port}`, () => stopChild(current.child, 15_000));
  await waitForHealth(url, current.child, current.tail, 60_000);
  const instance: Instance = {
    url,
    port: opts.port,
    pid: current.child.pid!,
    logTail: () => current.tail(),
    stop,
    async restart() {
      await stopChild(current.child, 15_000);
      current = spawnServe();
      instance.pid = current.child.pid!;
      await waitForHealth(url, current.child, current.tail, 60_000);
    },
  };
  return instance;
}

/** A second app instance on the main server's database (bench/live-runs.ts's two-instance phases). */
export const startSecondInstance = startInstance;

export interface Cluster {
  databaseUrl: string;
  sessionSecret: string;
  build: MainServer["build"];
  instances: Instance[];
}

/**
 * A fresh migrated and seeded database (embedded PostgreSQL, a child of the bench) and N app
 * instances on it, each its own restartable process: what e2e-server does for one, without tying
 * the database's life to any instance.
 */
export async function startCluster(opts: { ports: number[]; dataDir: string; ifStale: "refuse" | "build" | "serve" }): Promise<Cluster> {
  const stale = buildStaleReason();
  if (stale && opts.ifStale === "refuse") {
    throw new Error(`the production build is stale (${stale}). Run \`npm run build\` first, or pass --build or --stale-build (measure the existing build as it is)`);
  }
  if (!fs.existsSync(path.join(root, ".next", "BUILD_ID")) && opts.ifStale !== "build") throw new Error("there is no build: run `npm run build` first");
  for (const port of opts.ports) if (await portInUse(port)) throw new Error(`port ${port} is already in use: is another bench running?`);
  fs.rmSync(opts.dataDir, { recursive: true, force: true });
  fs.mkdirSync(opts.dataDir, { recursive: true });
  process.env.PROBEBOOK_DATA_DIR = opts.dataDir;
  const db = await createTestDatabase("bench");
  onCleanup("bench database", () => db.dispose());
  writeDatabaseUrlFile(db.url);
  await seedDatabase(db.url);
  const sessionSecret = await ensureSessionSecret(db.url);
  if (stale && opts.ifStale === "build") await runNextBuild({ ...process.env, DATABASE_URL: db.url, SESSION_SECRET: sessionSecret, NEXT_TELEMETRY_DISABLED: "1" });
  const instances: Instance[] = [];
  for (const port of opts.ports) instances.push(await startInstance({ port, dataDir: opts.dataDir, databaseUrl: db.url, sessionSecret }));
  const buildId = fs.readFileSync(path.join(root, ".next", "BUILD_ID"), "utf8").trim();
  const build = { stale, action: stale ? (opts.ifStale === "serve" ? ("served as is" as const) : ("rebuilt" as const)) : null, buildId };
  return { databaseUrl: db.url, sessionSecret, build, instances };
}
