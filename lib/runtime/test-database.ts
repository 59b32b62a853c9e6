import crypto from "node:crypto";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { startEmbeddedPostgres, withDatabase, type EmbeddedServer } from "./embedded-postgres";
import { adminQuery, quoteIdent } from "./pg-admin";
import { migrateDeploy } from "./prisma-cli";

export interface TestDatabase {
  url: string;
  dispose(): Promise<void>;
}

/**
 * A fresh, migrated database for one test run, dropped by dispose(). Uses TEST_DATABASE_URL or
 * DATABASE_URL as the server when set, else an embedded PostgreSQL in a temporary directory.
 */
export async function createTestDatabase(label = "test"): Promise<TestDatabase> {
  const base = process.env.TEST_DATABASE_URL || process.env.DATABASE_URL;
  let server: EmbeddedServer | null = null;
  let tmp: string | null = null;
  let adminUrl: string;
  if (base) {
    adminUrl = base;
  } else {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), `probebook-${label}-`));
    // The embedded server runs as the `postgres` user when we are root: it must reach this dir.
    fs.chmodSync(tmp, 0o755);
    server = await startEmbeddedPostgres({ dir: tmp });
    adminUrl = server.adminUrl;
  }
  const name = `probebook_${label}_${Date.now().toString(36)}_${crypto.randomBytes(3).toString("hex")}`;
  await adminQuery(adminUrl, `CREATE DATABASE ${quoteIdent(name)}`);
  const url = withDatabase(adminUrl, name);
  try {
    await migrateDeploy(url);
  } catch (err) {
    await adminQuery(adminUrl, `DROP DATABASE IF EXISTS ${quoteIdent(name)} WITH (FORCE)`).catch(() => undefined);
    await server?.stop();
    throw err;
  }
  return {
    url,
    async dispose() {
      await adminQuery(adminUrl, `DROP DATABASE IF EXISTS ${quoteIdent(name)} WITH (FORCE)`).catch(() => undefined);
      await server?.stop();
      if (tmp) fs.rmSync(tmp, { recursive: true, force: true });
    },
  };
}
