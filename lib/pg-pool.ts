import pg from "pg";
import { resolveDatabaseUrlForTools } from "./runtime/database-url-file";

const g = globalThis as unknown as { probebookPgPool?: pg.Pool };

/**
 * A plain node-postgres pool for the two hottest paths — chunk ingest and live-log reads —
 * where Prisma's per-query overhead was most of the app server's CPU under load
 * (bench/README.md). Everything else goes through Prisma (lib/db.ts).
 */
export function pgPool(): pg.Pool {
  g.probebookPgPool ??= new pg.Pool({
    connectionString: resolveDatabaseUrlForTools(),
    max: Number(process.env.PROBEBOOK_DB_POOL) || 20,
  });
  return g.probebookPgPool;
}
