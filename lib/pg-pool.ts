import pg from "pg";
import { resolveDatabaseUrlForTools } from "./runtime/database-url-file";

const g = globalThis as unknown as { probebookPgPool?: pg.Pool };

/**
 * A plain node-postgres pool for the two hottest paths — chunk ingest and live-log reads —
 * where Prisma's per-query overhead was most of the app server's CPU under load
 * (bench/README.md). Everything else goes through Prisma (lib/db.ts).
 */
export function pgPool(): pg.Pool {
  if (!g.probebookPgPool) {
    const pool = new pg.Pool({ connectionString: resolveDatabaseUrlForTools(), max: Number(process.env.PROBEBOOK_DB_POOL) || 20 });
    // An idle connection dies when PostgreSQL restarts; the pool drops it and opens a new one on
    // the next query. Unhandled, the error would be thrown out of the process.
    pool.on("error", (err) => console.warn(`database connection lost (${err.message}); it will be reopened`));
    g.probebookPgPool = pool;
  }
  return g.probebookPgPool;
}
