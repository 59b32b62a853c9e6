import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { instance, stopInstance } from "../../instance/instance";
import { connectTestDatabase } from "../../testing/db";
import { checkReadiness, newestShippedMigration } from "./check-readiness";

const url = connectTestDatabase();
afterAll(() => stopInstance());

const noop = async () => 0;
const upkeep = { markSilentRunsLost: noop, expireQueuedRuns: noop, pruneThrottles: noop, pruneAudit: noop, pruneSessions: noop, deliverWebhooks: noop, pruneRawLogs: noop, fireDueSchedules: noop };

/** A prisma/migrations directory holding these migration names. */
function migrationsDir(names: string[]): string {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pb-migrations-"));
  for (const n of names) fs.mkdirSync(path.join(dir, n));
  fs.writeFileSync(path.join(dir, "migration_lock.toml"), "");
  return dir;
}

describe("readiness", () => {
  it("waits for the instance, then is ready on a migrated database with this build's migrations", async () => {
    expect(newestShippedMigration()).toMatch(/^\d{14}_/);
    expect(await checkReadiness()).toEqual({ status: "not-ready", reason: "the instance has not started yet", checks: { database: "ok", migrations: "ok", instance: "pending" } });
    instance().start(upkeep);
    expect(await checkReadiness()).toEqual({ status: "ready", checks: { database: "ok", migrations: "ok", instance: "ok" } });
  });

  it("is not ready when the build ships a migration the database lacks, or none is found", async () => {
    const ahead = migrationsDir(["20991231235959_from_the_future", "20261121120000_init"]);
    const r = await checkReadiness({ migrationsDir: ahead });
    expect(r).toMatchObject({ status: "not-ready", checks: { database: "ok", migrations: "failed" } });
    expect(r.reason).toMatch(/^the database's newest migration is \d{14}_\w+, this build's is 20991231235959_from_the_future$/);
    expect((await checkReadiness({ migrationsDir: path.join(ahead, "nowhere") })).reason).toMatch(/migrations directory was not found/);
    fs.rmSync(ahead, { recursive: true, force: true });
  });

  it("is not ready when a migration failed half-way, or the database never was migrated", async () => {
    // A database of its own, so the shared one's migrations table is left alone.
    const admin = new pg.Client({ connectionString: url });
    await admin.connect();
    const name = `pb_ready_${Date.now().toString(36)}`;
    await admin.query(`CREATE DATABASE ${name}`);
    const u = new URL(url);
    u.pathname = `/${name}`;
    const pool = new pg.Pool({ connectionString: u.toString(), max: 1 });
    try {
      expect(await checkReadiness({ pool })).toMatchObject({ status: "not-ready", reason: "the database has no migrations applied (run `npm run db:migrate`)", checks: { database: "ok", migrations: "failed" } });
      await pool.query(`CREATE TABLE _prisma_migrations (id text, migration_name text, finished_at timestamptz, rolled_back_at timestamptz)`);
      await pool.query(`INSERT INTO _prisma_migrations VALUES ('1', $1, now(), NULL), ('2', '20991231235959_broken', NULL, NULL)`, [newestShippedMigration()]);
      expect((await checkReadiness({ pool })).reason).toBe("migration 20991231235959_broken failed half-way; see `npx prisma migrate resolve`");
    } finally {
      await pool.end();
      await admin.query(`DROP DATABASE ${name} WITH (FORCE)`);
      await admin.end();
    }
  });

  it("is not ready, within its timeout, when the database does not answer", async () => {
    // A server that accepts connections and never speaks: the worst case for a pool.
    const silent = net.createServer(() => undefined);
    await new Promise<void>((r) => silent.listen(0, "127.0.0.1", r));
    const pool = new pg.Pool({ connectionString: `postgresql://x@127.0.0.1:${(silent.address() as net.AddressInfo).port}/x`, max: 1 });
    pool.on("error", () => undefined);
    const t0 = Date.now();
    try {
      const r = await checkReadiness({ pool });
      expect(r).toMatchObject({ status: "not-ready", checks: { database: "failed", migrations: "pending" } });
      expect(r.reason).toBe("the database is unreachable: no answer within 2 s");
      expect(Date.now() - t0).toBeLessThan(3000);
    } finally {
      silent.close();
      void pool.end().catch(() => undefined);
    }
  });
});
