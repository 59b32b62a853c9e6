import crypto from "node:crypto";
import fs from "node:fs";
import path from "node:path";
import pg from "pg";
import { dataDir } from "./paths";

/** iron-session refuses shorter passwords. */
export const SESSION_SECRET_MIN_LENGTH = 32;

/** The row of `instance_secrets` that holds the cookie key when SESSION_SECRET is not set. */
export const SESSION_SECRET_NAME = "session";

/** SESSION_SECRET when set (checked), else null. */
export function sessionSecretFromEnv(): string | null {
  const fromEnv = process.env.SESSION_SECRET;
  if (!fromEnv) return null;
  if (fromEnv.length < SESSION_SECRET_MIN_LENGTH) {
    throw new Error(`SESSION_SECRET must be at least ${SESSION_SECRET_MIN_LENGTH} characters long (it has ${fromEnv.length})`);
  }
  return fromEnv;
}

/** Where releases before the database-stored key kept it: read once, to move it into the database. */
export function legacySessionSecretFile(dir = dataDir()): string {
  return path.join(dir, "session-secret");
}

function readLegacySecret(dir: string): string | null {
  try {
    const existing = fs.readFileSync(legacySessionSecretFile(dir), "utf8").trim();
    return existing.length >= SESSION_SECRET_MIN_LENGTH ? existing : null;
  } catch {
    return null;
  }
}

/** What both a pg.Client and a pg.Pool offer. */
interface Queryable {
  query<R extends pg.QueryResultRow>(sql: string, params: unknown[]): Promise<pg.QueryResult<R>>;
}

/**
 * The key stored in the database, created from `candidate` (random by default) when there is
 * none: INSERT … ON CONFLICT DO NOTHING, then whichever row won is read back, so instances
 * starting together agree. `created` tells whether this call's candidate was stored.
 */
export async function storedSessionSecret(
  db: Queryable,
  candidate = crypto.randomBytes(32).toString("base64url"),
): Promise<{ secret: string; created: boolean }> {
  const inserted = await db.query("INSERT INTO instance_secrets (name, value) VALUES ($1, $2) ON CONFLICT (name) DO NOTHING", [SESSION_SECRET_NAME, candidate]);
  const r = await db.query<{ value: string }>("SELECT value FROM instance_secrets WHERE name = $1", [SESSION_SECRET_NAME]);
  const secret = r.rows[0]?.value;
  if (!secret || secret.length < SESSION_SECRET_MIN_LENGTH) {
    throw new Error(`the session secret stored in the database (instance_secrets, name "${SESSION_SECRET_NAME}") is missing or shorter than ${SESSION_SECRET_MIN_LENGTH} characters`);
  }
  return { secret, created: inserted.rowCount === 1 };
}

/**
 * The key that seals session cookies: SESSION_SECRET when set (then every instance must be given
 * the same one); otherwise the one stored in the database, so every instance on one database
 * accepts the others' sign-ins. The first instance to start creates it — from the data dir's
 * `session-secret` file when an older release left one (its sessions stay valid), else at random.
 * Needs the migrations applied (the `instance_secrets` table).
 */
export async function ensureSessionSecret(
  databaseUrl: string,
  opts: { dir?: string; log?: (line: string) => void } = {},
): Promise<string> {
  const fromEnv = sessionSecretFromEnv();
  if (fromEnv) return fromEnv;
  const log = opts.log ?? (() => undefined);
  const legacy = readLegacySecret(opts.dir ?? dataDir());
  const client = new pg.Client({ connectionString: databaseUrl });
  await client.connect();
  try {
    const { secret, created } = await storedSessionSecret(client, legacy ?? undefined);
    if (legacy && created) log("moved the session secret from the data dir into the database (signed-in sessions stay valid)");
    if (legacy && secret !== legacy) {
      log("the data dir's session-secret differs from the one in the database; the database's is used (sessions sealed with the other must sign in again)");
    }
    return secret;
  } finally {
    await client.end();
  }
}
