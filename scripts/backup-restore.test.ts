// `npm run backup` and `npm run restore` as an operator runs them: back up a database holding
// runs, wipe it, restore it, and find the same runs again — on a PostgreSQL server and on the
// embedded one.
import { spawnSync } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { seedDatabase } from "../prisma/seed";
import { startEmbeddedPostgres, withDatabase } from "../lib/runtime/embedded-postgres";
import { adminQuery } from "../lib/runtime/pg-admin";
import { migrateDeploy } from "../lib/runtime/prisma-cli";
import { ensureSessionSecret } from "../lib/runtime/session-secret";
import { createTestDatabase } from "../lib/runtime/test-database";

const root = path.resolve(import.meta.dirname, "..");
const tsx = path.join(root, "node_modules", "tsx", "dist", "cli.mjs");
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), "probebook-backup-"));
fs.chmodSync(tmp, 0o755);

afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }));

/** Runs scripts/<name>.ts as `npm run <name>` does, with DATABASE_URL set or removed. */
function script(name: "backup" | "restore", args: string[], env: { DATABASE_URL?: string; PROBEBOOK_DATA_DIR?: string }) {
  const childEnv: NodeJS.ProcessEnv = { ...process.env, ...env };
  if (!env.DATABASE_URL) delete childEnv.DATABASE_URL;
  delete childEnv.SESSION_SECRET;
  const r = spawnSync(process.execPath, [tsx, `scripts/${name}.ts`, ...args], { cwd: root, env: childEnv, encoding: "utf8", timeout: 120_000 });
  return { code: r.status, out: `${r.stdout}${r.stderr}` };
}

function pgDumpMajor(): number {
  const r = spawnSync("pg_dump", ["--version"], { encoding: "utf8" });
  return Number(/(\d+)\.\d+/.exec(r.stdout ?? "")?.[1] ?? 0);
}

async function serverMajor(url: string): Promise<number> {
  const r = await adminQuery(url, "SHOW server_version_num");
  return Math.floor(Number((r.rows[0] as { server_version_num: string }).server_version_num) / 10000);
}

async function runIds(url: string): Promise<string[]> {
  const r = await adminQuery(url, "SELECT id FROM probe_runs ORDER BY id");
  return r.rows.map((row: { id: string }) => row.id);
}

describe("backup and restore of a PostgreSQL server (pg_dump / pg_restore)", () => {
  it("backs up, wipes, restores and finds the runs and the session key again", async () => {
    const db = await createTestDatabase("backup");
    try {
      await seedDatabase(db.url);
      const secret = await ensureSessionSecret(db.url, { dir: tmp });
      const before = await runIds(db.url);
      expect(before.length).toBeGreaterThan(5);
      const file = path.join(tmp, "server.dump");

      const backup = script("backup", ["--out", file], { DATABASE_URL: db.url });
      if (pgDumpMajor() < (await serverMajor(db.url))) {
        // E.g. the embedded PostgreSQL 18 (no TEST_DATABASE_URL) and Debian 12's pg_dump 15:
        // what the operator is told instead, since that pg_dump cannot read the server.
        expect(backup.code).toBe(1);
        expect(backup.out).toMatch(/The pg_dump here is older than the server: install the client tools of the server's major version/);
        return;
      }
      expect(backup.code, backup.out).toBe(0);
      expect(fs.readFileSync(file).subarray(0, 5).toString("latin1")).toBe("PGDMP");
      expect(script("backup", ["--out", file], { DATABASE_URL: db.url }).out).toMatch(/already exists: choose another name/);

      await adminQuery(db.url, "DROP SCHEMA public CASCADE; CREATE SCHEMA public");
      await expect(runIds(db.url)).rejects.toThrow(/probe_runs/);

      const unconfirmed = script("restore", [file], { DATABASE_URL: db.url });
      expect(unconfirmed.code).toBe(2);
      expect(unconfirmed.out).toMatch(/this replaces the database of DATABASE_URL .*run again with --yes/);

      // An app still connected would hold locks against the restore: refused, naming it.
      const app = new pg.Client({ connectionString: db.url, application_name: "probebook-app" });
      await app.connect();
      try {
        const busy = script("restore", [file, "--yes"], { DATABASE_URL: db.url });
        expect(busy.code).toBe(1);
        expect(busy.out).toMatch(/1 other connection\(s\) to the database \(probebook-app\): stop every Probebook instance first/);
      } finally {
        await app.end();
      }

      const restore = script("restore", [file, "--yes"], { DATABASE_URL: db.url });
      expect(restore.code, restore.out).toBe(0);
      expect(await runIds(db.url)).toEqual(before);
      expect(await ensureSessionSecret(db.url, { dir: tmp })).toBe(secret);
      // Restoring over a live database (not wiped) replaces it as well.
      await adminQuery(db.url, "DELETE FROM probe_runs");
      expect(script("restore", [file, "--yes"], { DATABASE_URL: db.url }).code).toBe(0);
      expect(await runIds(db.url)).toEqual(before);
    } finally {
      await db.dispose();
    }
  }, 180_000);
});

describe("backup and restore of the embedded PostgreSQL (cold copy of the data dir)", () => {
  it("refuses while it runs, then backs up, wipes, restores and finds the runs again", async () => {
    const dataDir = path.join(tmp, "data");
    const pgDir = path.join(dataDir, "postgres");
    const env = { PROBEBOOK_DATA_DIR: dataDir };
    let server = await startEmbeddedPostgres({ dir: pgDir });
    let before: string[];
    try {
      await adminQuery(server.adminUrl, "CREATE DATABASE probebook");
      const url = withDatabase(server.adminUrl, "probebook");
      await migrateDeploy(url);
      await seedDatabase(url);
      before = await runIds(url);
      expect(before.length).toBeGreaterThan(5);
      const running = script("backup", ["--out", path.join(tmp, "while-running.tar.gz")], env);
      expect(running.code).toBe(1);
      expect(running.out).toMatch(/the embedded PostgreSQL of .* is running \(pid \d+\): stop Probebook/);
      expect(fs.existsSync(path.join(tmp, "while-running.tar.gz"))).toBe(false);
    } finally {
      await server.stop();
    }
    fs.mkdirSync(path.join(dataDir, "scratch"));
    fs.writeFileSync(path.join(dataDir, "scratch", "big-test-file"), "not part of a backup");
    const file = path.join(tmp, "embedded.tar.gz");
    const backup = script("backup", ["--out", file], env);
    expect(backup.code, backup.out).toBe(0);

    // Wiped: the cluster's files are gone (the scratch space stays, as a disk would).
    fs.rmSync(pgDir, { recursive: true, force: true });
    expect(script("restore", [path.join(tmp, "nothing-here.tar.gz"), "--yes"], env).out).toMatch(/does not exist/);
    const restore = script("restore", [file, "--yes"], env);
    expect(restore.code, restore.out).toBe(0);
    expect(restore.out).toMatch(/the data dir as it was is in .*\.before-restore-\d+/);
    expect(fs.readFileSync(path.join(dataDir, "scratch", "big-test-file"), "utf8")).toBe("not part of a backup");

    server = await startEmbeddedPostgres({ dir: pgDir });
    try {
      expect(await runIds(withDatabase(server.adminUrl, "probebook"))).toEqual(before);
    } finally {
      await server.stop();
    }
    // A server archive is not restored into the embedded database by accident, nor the reverse.
    expect(script("restore", [file, "--yes"], { ...env, DATABASE_URL: "postgresql://postgres@127.0.0.1:5432/postgres" }).out).toMatch(
      /is a backup of an embedded database: unset DATABASE_URL/,
    );
  }, 240_000);
});
