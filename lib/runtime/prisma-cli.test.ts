// Instances started together on one database each run `migrate deploy` at start.
import { describe, expect, it } from "vitest";
import { adminQuery, quoteIdent } from "./pg-admin";
import { migrateDeploy } from "./prisma-cli";
import { createTestDatabase } from "./test-database";
import { withDatabase } from "./embedded-postgres";

describe("migrateDeploy", () => {
  it("lets three instances starting at once on a fresh database all succeed, each migration applied once", async () => {
    // A migrated test database gives the server; a fresh, empty database on it is the target.
    const server = await createTestDatabase("migrate");
    const name = `${new URL(server.url).pathname.slice(1)}_fresh`;
    await adminQuery(server.url, `CREATE DATABASE ${quoteIdent(name)}`);
    const url = withDatabase(server.url, name);
    try {
      const results = await Promise.allSettled([migrateDeploy(url), migrateDeploy(url), migrateDeploy(url)]);
      expect(results.map((r) => (r.status === "rejected" ? String(r.reason).slice(-400) : "ok"))).toEqual(["ok", "ok", "ok"]);
      const applied = await adminQuery(url, "SELECT count(*)::int AS n, count(DISTINCT migration_name)::int AS distinct_names, count(finished_at)::int AS finished FROM _prisma_migrations");
      const row = applied.rows[0] as { n: number; distinct_names: number; finished: number };
      expect(row.n).toBeGreaterThan(5);
      expect(row).toEqual({ n: row.n, distinct_names: row.n, finished: row.n });
    } finally {
      await adminQuery(server.url, `DROP DATABASE IF EXISTS ${quoteIdent(name)} WITH (FORCE)`);
      await server.dispose();
    }
  }, 240_000);
});
