// scripts/e2e-server.ts without its `next build` step, for `live-runs.ts --stale-build`: a fresh
// database, the seed, and `next start` on whatever .next holds. In a checkout others are editing
// the build is often stale, and rebuilding would swap .next under their running servers.
// Keep in step with scripts/e2e-server.ts.
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { writeDatabaseUrlFile } from "../../lib/runtime/database-url-file";
import { nextBin } from "../../lib/runtime/next-build";
import { dataDir, projectRoot } from "../../lib/runtime/paths";
import { ensureSessionSecret } from "../../lib/runtime/session-secret";
import { createTestDatabase } from "../../lib/runtime/test-database";
import { seedDatabase } from "../../prisma/seed";

async function main() {
  const port = process.env.PORT;
  if (!port) throw new Error("PORT is not set");
  if (!fs.existsSync(path.join(projectRoot, ".next", "BUILD_ID"))) throw new Error("there is no build: run `npm run build` first");
  fs.rmSync(dataDir(), { recursive: true, force: true });
  fs.mkdirSync(dataDir(), { recursive: true });
  const db = await createTestDatabase("e2e");
  writeDatabaseUrlFile(db.url);
  await seedDatabase(db.url);
  const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: db.url, SESSION_SECRET: ensureSessionSecret(), NEXT_TELEMETRY_DISABLED: "1" };
  const next = spawn(process.execPath, [nextBin(), "start", "-p", port], {
    cwd: projectRoot,
    env: { ...env, NODE_ENV: "production" },
    stdio: "inherit",
  });
  let stopping = false;
  const stop = async () => {
    if (stopping) return;
    stopping = true;
    next.kill("SIGTERM");
    await new Promise((r) => (next.exitCode !== null ? r(null) : next.once("exit", r)));
    await db.dispose();
    process.exit(0);
  };
  process.on("SIGTERM", () => void stop());
  process.on("SIGINT", () => void stop());
  next.on("exit", () => void stop());
}

main().catch((err: unknown) => {
  console.error(`[bench server] failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
