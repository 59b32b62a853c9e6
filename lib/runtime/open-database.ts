import path from "node:path";
import { checkDatabaseUrl } from "./database-url";
import { readDatabaseUrlFile, removeDatabaseUrlFile, writeDatabaseUrlFile } from "./database-url-file";
import { startEmbeddedPostgres, withDatabase, type EmbeddedServer } from "./embedded-postgres";
import { canConnect, databaseExists, adminQuery, quoteIdent } from "./pg-admin";
import { dataDir } from "./paths";

export interface OpenDatabase {
  url: string;
  /** The embedded server this process started, if any. */
  embedded: EmbeddedServer | null;
  close(): Promise<void>;
}

const APP_DATABASE = "probebook";

/**
 * The database Probebook runs on: DATABASE_URL if set; otherwise the embedded server another
 * Probebook process already runs on this data dir; otherwise a new embedded server started here.
 */
export async function openDatabase(opts: { log?: (line: string) => void } = {}): Promise<OpenDatabase> {
  const log = opts.log ?? (() => undefined);
  if (process.env.DATABASE_URL) {
    checkDatabaseUrl(process.env.DATABASE_URL);
    return { url: process.env.DATABASE_URL, embedded: null, close: async () => undefined };
  }
  const dir = dataDir();
  const recorded = readDatabaseUrlFile(dir);
  if (recorded && (await canConnect(recorded))) {
    log(`using the embedded PostgreSQL already running for ${dir}`);
    return { url: recorded, embedded: null, close: async () => undefined };
  }
  const server = await startEmbeddedPostgres({
    dir: path.join(dir, "postgres"),
    port: Number(process.env.PROBEBOOK_PG_PORT) || 54329,
    log,
  });
  if (!(await databaseExists(server.adminUrl, APP_DATABASE))) {
    await adminQuery(server.adminUrl, `CREATE DATABASE ${quoteIdent(APP_DATABASE)}`);
  }
  const url = withDatabase(server.adminUrl, APP_DATABASE);
  writeDatabaseUrlFile(url, dir);
  return {
    url,
    embedded: server,
    async close() {
      removeDatabaseUrlFile(dir);
      await server.stop();
    },
  };
}
