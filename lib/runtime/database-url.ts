import fs from "node:fs";

// Every connection Probebook opens — the app's pool, Prisma's adapter, `prisma migrate deploy`
// (prisma-migrate-adapter-pg), the admin CLI — goes through node-postgres, which parses the URL
// with pg-connection-string. A parameter it does not act on would be silently ignored, so only
// the ones it honours (checked end to end in database-url.test.ts) are accepted.

const SSL_MODES = ["disable", "prefer", "require", "verify-ca", "verify-full", "no-verify"];
const MILLISECONDS = /^\d+$/;

type Check = (value: string) => string | null;

const fileCheck: Check = (value) => {
  try {
    fs.accessSync(value, fs.constants.R_OK);
    return null;
  } catch {
    return `the file "${value}" cannot be read`;
  }
};
const oneOf =
  (...allowed: string[]): Check =>
  (value) =>
    allowed.includes(value) ? null : `must be one of ${allowed.join(", ")}, not "${value}"`;
const milliseconds: Check = (value) => (MILLISECONDS.test(value) ? null : `must be a whole number of milliseconds, not "${value}"`);
const searchPathExplained =
  "Probebook uses the database's default search path (its public schema); give Probebook a database of its own (CREATE DATABASE probebook) instead of a schema";

/** The query parameters Probebook accepts, each with the check of its value. */
const SUPPORTED: Record<string, Check> = {
  host: (value) => (value ? null : "must not be empty (a host name, or a socket directory such as /var/run/postgresql)"),
  port: (value) => (/^\d+$/.test(value) && Number(value) >= 1 && Number(value) <= 65535 ? null : `must be a port number from 1 to 65535, not "${value}"`),
  user: () => null,
  password: () => null,
  sslmode: oneOf(...SSL_MODES),
  ssl: oneOf("true", "1", "0", "no-verify"),
  sslcert: fileCheck,
  sslkey: fileCheck,
  sslrootcert: fileCheck,
  sslnegotiation: oneOf("postgres", "direct"),
  uselibpqcompat: oneOf("true"),
  application_name: () => null,
  fallback_application_name: () => null,
  statement_timeout: milliseconds,
  lock_timeout: milliseconds,
  idle_in_transaction_session_timeout: milliseconds,
  query_timeout: milliseconds,
  options: (value) => (/search_path/i.test(value) ? `must not set search_path: ${searchPathExplained}` : null),
};

/** Why a well-known parameter that node-postgres ignores (or Probebook cannot use) is refused. */
const REFUSED_BECAUSE: Record<string, string> = {
  schema: searchPathExplained,
  currentSchema: searchPathExplained,
  search_path: searchPathExplained,
  connect_timeout: "node-postgres ignores it in a URL",
  keepalives: "node-postgres ignores it in a URL",
  keepalives_idle: "node-postgres ignores it in a URL",
  target_session_attrs: "node-postgres ignores it; point DATABASE_URL at the primary",
  dbname: "the database is the URL's path: postgresql://user@host:5432/probebook",
  client_encoding: "Probebook's data is UTF-8; the connection must stay UTF-8",
  binary: "Probebook's queries read text results",
  replication: "Probebook needs an ordinary connection, not a replication one",
  connection_limit: "it is Prisma's native engine's pool setting; set PROBEBOOK_DB_POOL instead",
  pool_timeout: "it is Prisma's native engine's setting; Probebook connects through node-postgres",
  pgbouncer: "it is Prisma's native engine's setting; Probebook connects through node-postgres",
  sslaccept: "it is Prisma's native engine's setting; use sslmode",
  sslidentity: "it is Prisma's native engine's setting; use sslcert and sslkey",
  sslpassword: "node-postgres cannot open an encrypted key; decrypt it into a 0600 file and use sslkey",
  socket_timeout: "it is Prisma's native engine's setting; use query_timeout or statement_timeout",
};

export const SUPPORTED_DATABASE_URL_PARAMETERS = Object.keys(SUPPORTED);

/** The URL with its password replaced, for messages. */
function redacted(url: URL): string {
  const copy = new URL(url.href);
  if (copy.password) copy.password = "***";
  return copy.href;
}

/**
 * Throws, naming the variable and the parameter, when `url` is not a postgresql:// URL whose
 * every query parameter Probebook's connections honour. Called where the URL enters a process:
 * openDatabase (npm start) and resolveDatabaseUrlForTools (the app, the CLI tools).
 */
export function checkDatabaseUrl(raw: string, variable = "DATABASE_URL"): void {
  let url: URL;
  try {
    // An empty host (postgresql://user@/db?host=/var/run/postgresql) is valid for node-postgres,
    // which parses it with a stand-in host as done here.
    url = new URL(raw.replace("@/", "@localhost/"));
  } catch {
    throw new Error(`${variable} is not a URL: write it as postgresql://user:password@host:5432/database`);
  }
  if (url.protocol !== "postgresql:" && url.protocol !== "postgres:") {
    throw new Error(`${variable} must start with postgresql:// (it starts with ${url.protocol}//)`);
  }
  if (!decodeURIComponent(url.pathname.replace(/^\//, ""))) {
    throw new Error(`${variable} names no database: add it as the path, e.g. postgresql://user@host:5432/probebook (${redacted(url)})`);
  }
  const list = SUPPORTED_DATABASE_URL_PARAMETERS.join(", ");
  for (const [name, value] of url.searchParams) {
    const check = SUPPORTED[name];
    if (!check) {
      const why = REFUSED_BECAUSE[name] ?? "Probebook's database driver (node-postgres) does not act on it";
      throw new Error(`${variable}: the parameter "${name}" is not supported: ${why}. Supported parameters: ${list}`);
    }
    const problem = check(value);
    if (problem) throw new Error(`${variable}: the parameter "${name}" ${problem}`);
  }
}
