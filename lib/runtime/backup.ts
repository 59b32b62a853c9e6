// Backup and restore for both kinds of database (`npm run backup`, `npm run restore`).
//   A PostgreSQL server (DATABASE_URL): pg_dump's custom format, restored with pg_restore
//   --clean --if-exists in one transaction. The client tools must be as new as the server.
//   The embedded PostgreSQL: its package ships no pg_dump, and a distribution's older pg_dump
//   refuses a newer server, so the backup is a cold copy: with the server stopped, the data dir
//   (cluster, its password, the local agent's credential; not the scratch space) into a .tar.gz.
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import { parse as parseConnectionString } from "pg-connection-string";
import { checkDatabaseUrl } from "./database-url";

export type BackupKind = "server" | "embedded";

interface RunResult {
  code: number;
  stderr: string;
}

function run(cmd: string, args: string[], env: NodeJS.ProcessEnv = process.env): Promise<RunResult> {
  return new Promise((resolve, reject) => {
    const child = spawn(cmd, args, { env, stdio: ["ignore", "inherit", "pipe"] });
    let stderr = "";
    child.stderr.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("error", (err: NodeJS.ErrnoException) =>
      reject(err.code === "ENOENT" ? new Error(`${cmd} is not installed (Debian: apt-get install postgresql-client for pg_dump and pg_restore)`) : err),
    );
    child.on("close", (code) => resolve({ code: code ?? 1, stderr }));
  });
}

/**
 * libpq's environment for the server in `url`: the client tools take the password from the
 * environment rather than the command line (where `ps` would show it), and accept only libpq's
 * own keywords — node-postgres-only parameters (query_timeout, uselibpqcompat, …) are left out.
 */
export function libpqEnv(url: string): NodeJS.ProcessEnv {
  checkDatabaseUrl(url);
  const c = parseConnectionString(url);
  const q = new URL(url.replace("@/", "@localhost/")).searchParams;
  const env: NodeJS.ProcessEnv = { ...process.env };
  for (const key of Object.keys(env)) if (key.startsWith("PG")) delete env[key];
  const set = (name: string, value: string | null | undefined) => {
    if (value) env[name] = value;
  };
  set("PGHOST", c.host);
  set("PGPORT", c.port);
  set("PGUSER", c.user);
  set("PGPASSWORD", c.password);
  set("PGDATABASE", c.database);
  const sslmode = q.get("sslmode") ?? (q.get("ssl") === "no-verify" ? "require" : q.get("ssl") === "0" ? "disable" : q.get("ssl") ? "verify-full" : null);
  set("PGSSLMODE", sslmode === "no-verify" ? "require" : sslmode);
  set("PGSSLCERT", q.get("sslcert"));
  set("PGSSLKEY", q.get("sslkey"));
  set("PGSSLROOTCERT", q.get("sslrootcert"));
  set("PGAPPNAME", q.get("application_name"));
  set("PGOPTIONS", q.get("options"));
  return env;
}

function dumpFailed(tool: string, r: RunResult): Error {
  const mismatch = /server version mismatch|unsupported version|aborting because of server version mismatch/i.test(r.stderr);
  const hint = mismatch
    ? ` The ${tool} here is older than the server: install the client tools of the server's major version (postgresql-client-<major>), ` +
      "or run it where they are, e.g. `docker compose exec db pg_dump -U probebook -Fc probebook > probebook.dump`."
    : "";
  return new Error(`${tool} failed (exit ${r.code}): ${r.stderr.trim()}${hint}`);
}

/** Other sessions on the database: a restore under a running app would fight it for locks. */
async function otherConnections(url: string): Promise<string[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    const r = await client.query<{ app: string }>(
      "SELECT coalesce(nullif(application_name, ''), client_addr::text, 'local socket') AS app FROM pg_stat_activity WHERE datname = current_database() AND pid <> pg_backend_pid()",
    );
    return r.rows.map((row) => row.app);
  } finally {
    await client.end();
  }
}

export async function backupServer(url: string, out: string): Promise<void> {
  const r = await run("pg_dump", ["--format=custom", "--no-owner", "--no-acl", "--file", out], libpqEnv(url));
  if (r.code !== 0) {
    fs.rmSync(out, { force: true });
    throw dumpFailed("pg_dump", r);
  }
}

export async function restoreServer(url: string, file: string, opts: { force?: boolean } = {}): Promise<void> {
  const others = await otherConnections(url);
  if (others.length && !opts.force) {
    throw new Error(
      `${others.length} other connection(s) to the database (${[...new Set(others)].join(", ")}): stop every Probebook instance first, or pass --force`,
    );
  }
  const env = libpqEnv(url);
  // --dbname makes pg_restore write to the server (without it, it prints SQL); the rest of the
  // connection comes from the environment.
  const r = await run(
    "pg_restore",
    ["--clean", "--if-exists", "--no-owner", "--no-acl", "--single-transaction", "--exit-on-error", "--dbname", env.PGDATABASE ?? "", file],
    env,
  );
  if (r.code !== 0) throw dumpFailed("pg_restore", r);
}

/** The pid in a cluster's postmaster.pid when that process is alive: the server is running. */
function runningPostmaster(clusterDir: string): number | null {
  let first: string | undefined;
  try {
    first = fs.readFileSync(path.join(clusterDir, "postmaster.pid"), "utf8").split("\n")[0];
  } catch {
    return null;
  }
  const pid = Number(first);
  if (!Number.isInteger(pid) || pid <= 0) return null;
  try {
    process.kill(pid, 0);
    return pid;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code === "EPERM" ? pid : null;
  }
}

function embeddedCluster(dataDir: string): string {
  return path.join(dataDir, "postgres", "pg");
}

function refuseWhileRunning(dataDir: string, action: string): void {
  const pid = runningPostmaster(embeddedCluster(dataDir));
  if (pid) {
    throw new Error(
      `the embedded PostgreSQL of ${dataDir} is running (pid ${pid}): stop Probebook (Ctrl-C on \`npm start\`, or \`docker compose stop app\`) and ${action} again. ` +
        "A copy of a running server's files would not be consistent.",
    );
  }
}

export async function backupEmbedded(dataDir: string, out: string): Promise<void> {
  if (!fs.existsSync(path.join(embeddedCluster(dataDir), "PG_VERSION"))) {
    throw new Error(`there is no embedded database in ${dataDir} (no postgres/pg/PG_VERSION): nothing to back up. Set DATABASE_URL to back up a server.`);
  }
  refuseWhileRunning(dataDir, "run the backup");
  const r = await run("tar", ["--create", "--gzip", "--file", out, "--directory", dataDir, "--exclude=./scratch", "--exclude=./database-url", "."]);
  if (r.code !== 0) {
    fs.rmSync(out, { force: true });
    throw new Error(`tar failed (exit ${r.code}): ${r.stderr.trim()}`);
  }
}

/**
 * Unpacks into a new directory beside the data dir, then swaps: the data dir as it was is kept
 * as `<dir>.before-restore-<time>` until the operator removes it.
 */
export async function restoreEmbedded(dataDir: string, file: string): Promise<{ previous: string | null }> {
  refuseWhileRunning(dataDir, "run the restore");
  const stamp = new Date().toISOString().replace(/\D/g, "").slice(0, 14);
  const incoming = `${dataDir}.restoring-${stamp}`;
  fs.mkdirSync(incoming, { recursive: true, mode: 0o755 });
  const r = await run("tar", ["--extract", "--gzip", "--same-owner", "--preserve-permissions", "--file", file, "--directory", incoming]);
  if (r.code !== 0 || !fs.existsSync(path.join(embeddedCluster(incoming), "PG_VERSION"))) {
    fs.rmSync(incoming, { recursive: true, force: true });
    throw new Error(r.code !== 0 ? `tar failed (exit ${r.code}): ${r.stderr.trim()}` : `${file} holds no embedded database (no postgres/pg/PG_VERSION)`);
  }
  let previous: string | null = null;
  if (fs.existsSync(dataDir)) {
    previous = `${dataDir}.before-restore-${stamp}`;
    fs.renameSync(dataDir, previous);
    // The scratch space is not in backups: keep the one there was.
    const scratch = path.join(previous, "scratch");
    if (fs.existsSync(scratch)) fs.renameSync(scratch, path.join(incoming, "scratch"));
  }
  fs.renameSync(incoming, dataDir);
  return { previous };
}

/** What a backup file is, from its first bytes: pg_dump's custom format or a gzip'd tar. */
export function backupFileKind(file: string): BackupKind {
  const fd = fs.openSync(file, "r");
  try {
    const head = Buffer.alloc(5);
    fs.readSync(fd, head, 0, 5, 0);
    if (head.toString("latin1") === "PGDMP") return "server";
    if (head[0] === 0x1f && head[1] === 0x8b) return "embedded";
  } finally {
    fs.closeSync(fd);
  }
  throw new Error(`${file} is neither a pg_dump archive (npm run backup with DATABASE_URL) nor an embedded-database backup (.tar.gz)`);
}
