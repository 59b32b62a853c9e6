import fs from "node:fs";
import path from "node:path";
import type pg from "pg";
import { pgPool } from "../../pg-pool";
import { instance } from "../../instance/instance";

type Check = "ok" | "failed" | "pending";
export interface Readiness {
  status: "ready" | "not-ready";
  reason?: string;
  checks: { database: Check; migrations: Check; instance: Check };
}

/** How long the database may take to answer before the instance counts as not ready. */
export const READY_DB_TIMEOUT_MS = 2000;

/** prisma/migrations of this build, found from PROBEBOOK_ROOT or the working directory (as the parse worker's source is). */
const migrationsDir = () => path.join(process.env.PROBEBOOK_ROOT ?? process.cwd(), "prisma", "migrations");

/** The newest migration under `dir`: its directory name, or null when there is none. Read once per directory. */
const shipped = new Map<string, string | null>();
export function newestShippedMigration(dir = migrationsDir()): string | null {
  if (!shipped.has(dir)) {
    let newest: string | null = null;
    try {
      newest = fs.readdirSync(dir).filter((n) => /^\d{14}_\w+$/.test(n)).sort().at(-1) ?? null;
    } catch {
      newest = null;
    }
    shipped.set(dir, newest);
  }
  return shipped.get(dir)!;
}

function within<T>(ms: number, p: Promise<T>): Promise<T> {
  return new Promise((resolve, reject) => {
    const t = setTimeout(() => reject(new Error(`no answer within ${ms / 1000} s`)), ms);
    p.then(
      (v) => (clearTimeout(t), resolve(v)),
      (e: unknown) => (clearTimeout(t), reject(e instanceof Error ? e : new Error(String(e)))),
    );
  });
}

const MIGRATIONS_SQL = `
  SELECT (SELECT max(migration_name) FROM _prisma_migrations WHERE finished_at IS NOT NULL AND rolled_back_at IS NULL) AS applied,
         (SELECT min(migration_name) FROM _prisma_migrations WHERE finished_at IS NULL AND rolled_back_at IS NULL) AS failed`;

/**
 * Whether this instance should take traffic: the database answers within READY_DB_TIMEOUT_MS,
 * its newest applied migration is the newest this build ships (none failed half-way), and the
 * instance's machinery has started. The first failing check is the reason.
 */
export async function checkReadiness(opts: { pool?: pg.Pool; migrationsDir?: string } = {}): Promise<Readiness> {
  const checks: Readiness["checks"] = { database: "pending", migrations: "pending", instance: instance().started ? "ok" : "pending" };
  const notReady = (reason: string): Readiness => ({ status: "not-ready", reason, checks });
  let row: { applied: string | null; failed: string | null };
  try {
    row = (await within(READY_DB_TIMEOUT_MS, (opts.pool ?? pgPool()).query<{ applied: string | null; failed: string | null }>(MIGRATIONS_SQL))).rows[0]!;
    checks.database = "ok";
  } catch (err) {
    checks.database = "failed";
    const why = err instanceof Error ? err.message : String(err);
    // A database without the table has never been migrated; it answers, so it is the migrations that fail.
    if (/_prisma_migrations/.test(why)) {
      checks.database = "ok";
      checks.migrations = "failed";
      return notReady("the database has no migrations applied (run `npm run db:migrate`)");
    }
    return notReady(`the database is unreachable: ${why.slice(0, 200)}`);
  }
  const want = newestShippedMigration(opts.migrationsDir);
  if (row.failed) {
    checks.migrations = "failed";
    return notReady(`migration ${row.failed} failed half-way; see \`npx prisma migrate resolve\``);
  }
  if (!want) {
    checks.migrations = "failed";
    return notReady("this build's prisma/migrations directory was not found (PROBEBOOK_ROOT or the working directory)");
  }
  if (row.applied !== want) {
    checks.migrations = "failed";
    return notReady(`the database's newest migration is ${row.applied ?? "none"}, this build's is ${want}`);
  }
  checks.migrations = "ok";
  if (checks.instance !== "ok") return notReady("the instance has not started yet");
  return { status: "ready", checks };
}
