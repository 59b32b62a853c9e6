// `npm run restore -- FILE --yes`: puts a backup of `npm run backup` back. A pg_dump archive goes
// into the server in DATABASE_URL (its tables replaced); an embedded backup replaces the data
// dir, whose old contents are kept beside it. Probebook must be stopped either way.
import fs from "node:fs";
import path from "node:path";
import { backupFileKind, restoreEmbedded, restoreServer } from "../lib/runtime/backup";
import { dataDir } from "../lib/runtime/paths";

const USAGE =
  "usage: npm run restore -- FILE --yes [--force]\n" +
  "  --yes    confirms that the database is to be replaced by the backup\n" +
  "  --force  restores into a server database even while other connections are open";

async function main() {
  const args = process.argv.slice(2);
  const flags = new Set(args.filter((a) => a.startsWith("--")));
  const files = args.filter((a) => !a.startsWith("--"));
  const unknown = [...flags].filter((f) => f !== "--yes" && f !== "--force");
  if (files.length !== 1 || unknown.length) {
    console.error(`${unknown.length ? `unknown option ${unknown[0]}` : "name one backup file"}\n${USAGE}`);
    process.exit(2);
  }
  const file = path.resolve(files[0]!);
  if (!fs.existsSync(file)) {
    console.error(`${file} does not exist`);
    process.exit(2);
  }
  const kind = backupFileKind(file);
  const target = process.env.DATABASE_URL ? "the database of DATABASE_URL" : `the embedded database in ${dataDir()}`;
  if (kind === "server" && !process.env.DATABASE_URL) {
    throw new Error(
      `${file} is a pg_dump archive of a server database: set DATABASE_URL to the server to restore into ` +
        "(for the embedded database: start Probebook once, stop it, and restore with DATABASE_URL set to the address in .data/database-url while it runs, with --force)",
    );
  }
  if (kind === "embedded" && process.env.DATABASE_URL) {
    throw new Error(`${file} is a backup of an embedded database: unset DATABASE_URL to restore it into ${dataDir()}`);
  }
  if (!flags.has("--yes")) {
    console.error(`this replaces ${target} with ${file}; run again with --yes to do it`);
    process.exit(2);
  }
  if (kind === "server") {
    await restoreServer(process.env.DATABASE_URL!, file, { force: flags.has("--force") });
    console.log(`restored ${file} into the database of DATABASE_URL; the next start applies any newer migrations`);
  } else {
    const { previous } = await restoreEmbedded(dataDir(), file);
    console.log(`restored ${file} into ${dataDir()}${previous ? `; the data dir as it was is in ${previous}` : ""}; the next start applies any newer migrations`);
  }
}

main().catch((err: unknown) => {
  console.error(`restore failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
