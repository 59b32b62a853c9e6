import pg from "pg";
import { log } from "./log";
import { resolveDatabaseUrlForTools } from "./runtime/database-url-file";

const g = globalThis as unknown as { probebookPgPool?: pg.Pool };

/**
 * The one node-postgres pool of this process. The Prisma client runs on it (lib/db.ts, through
 * adapter-pg) and the two hottest paths — chunk ingest and live-log reads — query it directly,
 * since Prisma's per-query overhead was most of the app server's CPU there (bench/README.md).
 * One pool means one connection budget per instance: `PROBEBOOK_DB_POOL` is the whole of it.
 */
export function pgPool(): pg.Pool {
  if (!g.probebookPgPool) {
    // Live streams and agent uploads each hold a connection briefly; 20 per instance keeps them from queueing.
    const pool = new pg.Pool({ connectionString: resolveDatabaseUrlForTools(), max: Number(process.env.PROBEBOOK_DB_POOL) || 20 });
    // An idle connection dies when PostgreSQL restarts; the pool drops it and opens a new one on
    // the next query. Unhandled, the error would be thrown out of the process — and adapter-pg
    // removes its own listener when a client disconnects, so this one must stay.
    pool.on("error", (err) => log().warn(`database connection lost (${err.message}); it will be reopened`));
    g.probebookPgPool = pool;
  }
  return g.probebookPgPool;
}
