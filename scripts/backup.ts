// `npm run backup -- --out FILE`: the server in DATABASE_URL with pg_dump (custom format), or,
// without DATABASE_URL, a cold copy of the embedded database's data dir (Probebook stopped).
import fs from "node:fs";
import path from "node:path";
import { backupEmbedded, backupServer } from "../lib/runtime/backup";
import { dataDir } from "../lib/runtime/paths";

const USAGE = "usage: npm run backup -- --out FILE   (DATABASE_URL set: pg_dump of that server; unset: the embedded database, with Probebook stopped)";

async function main() {
  const args = process.argv.slice(2);
  const i = args.indexOf("--out");
  const out = i >= 0 ? args[i + 1] : undefined;
  const unknown = args.filter((a, j) => j !== i && j !== i + 1);
  if (!out || out.startsWith("--") || unknown.length) {
    console.error(unknown.length ? `unknown argument ${unknown[0]}\n${USAGE}` : `--out FILE is required\n${USAGE}`);
    process.exit(2);
  }
  const file = path.resolve(out);
  if (fs.existsSync(file)) {
    console.error(`${file} already exists: choose another name (a backup never overwrites one)`);
    process.exit(2);
  }
  if (process.env.DATABASE_URL) {
    await backupServer(process.env.DATABASE_URL, file);
    console.log(`backed up the database of DATABASE_URL to ${file} (pg_dump custom format; restore with npm run restore -- ${out} --yes)`);
  } else {
    await backupEmbedded(dataDir(), file);
    console.log(`backed up the embedded database of ${dataDir()} to ${file} (restore with npm run restore -- ${out} --yes)`);
  }
}

main().catch((err: unknown) => {
  console.error(`backup failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
