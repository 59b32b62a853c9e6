// The web server Playwright starts: a fresh database for this test run, the current build, and
// the database's address in the e2e data dir so the admin CLI and agents in tests reach it.
// `--serve-existing-build` skips the rebuild of a stale .next (benchmarks in a checkout that
// others are editing must not swap .next under their running servers).
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { writeDatabaseUrlFile } from "../lib/runtime/database-url-file";
import { buildStaleReason, serveCommand, runNextBuild } from "../lib/runtime/next-build";
import { dataDir, projectRoot } from "../lib/runtime/paths";
import { ensureSessionSecret } from "../lib/runtime/session-secret";
import { createTestDatabase } from "../lib/runtime/test-database";
import { seedDatabase } from "../prisma/seed";

async function main() {
  const port = process.env.PORT ?? "3210";
  fs.rmSync(dataDir(), { recursive: true, force: true });
  fs.mkdirSync(dataDir(), { recursive: true });
  const db = await createTestDatabase("e2e");
  writeDatabaseUrlFile(db.url);
  await seedDatabase(db.url);
  const env: NodeJS.ProcessEnv = { ...process.env, DATABASE_URL: db.url, SESSION_SECRET: await ensureSessionSecret(db.url), NEXT_TELEMETRY_DISABLED: "1" };
  const serveExisting = process.argv.includes("--serve-existing-build");
  if (serveExisting && !fs.existsSync(path.join(projectRoot, ".next", "BUILD_ID"))) throw new Error("there is no build: run `npm run build` first");
  const reason = serveExisting ? null : buildStaleReason();
  if (reason) {
    console.log(`[e2e] building the app (${reason})`);
    await runNextBuild(env);
  }
  const next = spawn(process.execPath, serveCommand(), {
    cwd: projectRoot,
    env: { ...env, PORT: port, NODE_ENV: "production" },
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
  console.error(`[e2e] server failed: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
