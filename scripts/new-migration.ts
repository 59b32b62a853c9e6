// `npm run db:diff -- <name>`: writes prisma/migrations/<timestamp>_<name>/migration.sql with the
// SQL that takes a database from the committed migrations to prisma/schema.prisma.
// Prisma's `migrate dev` cannot run offline with the JavaScript schema engine, and `migrate diff`
// cannot read a database or a migrations folder through a driver adapter; it can diff two schema
// files. So every migration keeps the schema it was made from (prisma/migrations/schema-at-last-migration.prisma)
// and the next one is the diff from that file to prisma/schema.prisma. A throwaway database then
// proves the new migration applies on top of the committed ones.
import fs from "node:fs";
import path from "node:path";
import { runPrismaCli } from "../lib/runtime/prisma-cli";
import { createTestDatabase } from "../lib/runtime/test-database";
import { projectRoot } from "../lib/runtime/paths";

async function main() {
  const name = process.argv[2];
  if (!name || !/^[a-z0-9_]+$/.test(name)) {
    console.error("usage: npm run db:diff -- <name>   (name: lower-case letters, digits and _)");
    process.exit(2);
  }
  const snapshot = path.join("prisma", "migrations", "schema-at-last-migration.prisma");
  const db = await createTestDatabase("diff");
  try {
    const r = await runPrismaCli(
      ["migrate", "diff", "--from-schema-datamodel", snapshot, "--to-schema-datamodel", "prisma/schema.prisma", "--script"],
      { databaseUrl: db.url },
    );
    if (r.code !== 0) throw new Error(r.stderr || r.stdout);
    if (!/^\s*(CREATE|ALTER|DROP)/m.test(r.stdout)) {
      console.log("schema.prisma matches the committed migrations: nothing to write");
      return;
    }
    const stamp = new Date().toISOString().replace(/\D/g, "").slice(0, 14);
    const dir = path.join(projectRoot, "prisma", "migrations", `${stamp}_${name}`);
    fs.mkdirSync(dir, { recursive: true });
    fs.writeFileSync(path.join(dir, "migration.sql"), r.stdout);
    fs.copyFileSync(path.join(projectRoot, "prisma", "schema.prisma"), path.join(projectRoot, snapshot));
    const check = await createTestDatabase("diffcheck");
    await check.dispose();
    console.log(`wrote ${path.relative(projectRoot, dir)}/migration.sql — review it, then commit it`);
  } finally {
    await db.dispose();
  }
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : String(err));
  process.exit(1);
});
