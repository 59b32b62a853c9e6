import fs from "node:fs";
import path from "node:path";
import { checkDatabaseUrl } from "./database-url";
import { dataDir } from "./paths";

/**
 * While `npm start` runs the embedded PostgreSQL it records the server's URL here, so every
 * other process of the project (admin CLI, prisma scripts, local agent registration) talks
 * to the same database without configuration.
 */
export function databaseUrlFile(dir = dataDir()): string {
  return path.join(dir, "database-url");
}

export function readDatabaseUrlFile(dir = dataDir()): string | null {
  try {
    const url = fs.readFileSync(databaseUrlFile(dir), "utf8").trim();
    return url || null;
  } catch {
    return null;
  }
}

export function writeDatabaseUrlFile(url: string, dir = dataDir()): void {
  fs.mkdirSync(dir, { recursive: true });
  fs.writeFileSync(databaseUrlFile(dir), `${url}\n`, { mode: 0o600 });
}

export function removeDatabaseUrlFile(dir = dataDir()): void {
  fs.rmSync(databaseUrlFile(dir), { force: true });
}

/** DATABASE_URL, else the running embedded server's URL; a message a person can act on if neither. */
export function resolveDatabaseUrlForTools(): string {
  if (process.env.DATABASE_URL) {
    checkDatabaseUrl(process.env.DATABASE_URL);
    return process.env.DATABASE_URL;
  }
  const url = readDatabaseUrlFile();
  if (!url) {
    throw new Error(
      "No database to talk to: set DATABASE_URL, or start Probebook with `npm start` (it runs the embedded PostgreSQL and records its address in " +
        databaseUrlFile() +
        ").",
    );
  }
  return url;
}
