// `npm run db:* ` entry: runs the prisma CLI offline (see lib/runtime/prisma-cli.ts).
import { runPrismaCli } from "../lib/runtime/prisma-cli";
import { resolveDatabaseUrlForTools } from "../lib/runtime/database-url-file";

async function main() {
  const args = process.argv.slice(2);
  const needsDb = args[0] === "db" || (args[0] === "migrate" && args[1] !== "diff");
  const databaseUrl = needsDb ? resolveDatabaseUrlForTools() : undefined;
  const r = await runPrismaCli(args, { databaseUrl, inherit: true });
  process.exit(r.code);
}

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : String(err));
  process.exit(1);
});
