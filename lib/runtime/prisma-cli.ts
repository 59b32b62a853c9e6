import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import pg from "pg";

const root = path.resolve(__dirname, "..", "..");

/**
 * Prisma's CLI downloads native engines unless told where they are. Probebook uses the
 * JavaScript/WebAssembly engines only (engineType "client", engine "js"), so the native ones
 * are never executed: pointing the variables at an existing file stops the download attempts.
 */
function engineStub(): string {
  const stub = path.join(root, "node_modules", ".cache", "probebook", "no-native-engine");
  if (!fs.existsSync(stub)) {
    fs.mkdirSync(path.dirname(stub), { recursive: true });
    fs.writeFileSync(stub, "#!/bin/sh\necho 'native Prisma engines are not used by Probebook' >&2\nexit 1\n", { mode: 0o755 });
  }
  return stub;
}

export function prismaEnv(extra: Record<string, string> = {}): NodeJS.ProcessEnv {
  const stub = engineStub();
  return {
    ...process.env,
    PRISMA_QUERY_ENGINE_LIBRARY: stub,
    PRISMA_SCHEMA_ENGINE_BINARY: stub,
    PRISMA_HIDE_UPDATE_MESSAGE: "1",
    CHECKPOINT_DISABLE: "1",
    ...extra,
  };
}

export interface PrismaCliResult {
  code: number;
  stdout: string;
  stderr: string;
}

/** Runs the prisma CLI with the given arguments; `inherit` streams its output to ours. */
export function runPrismaCli(
  args: string[],
  opts: { databaseUrl?: string; inherit?: boolean } = {},
): Promise<PrismaCliResult> {
  const cli = path.join(root, "node_modules", "prisma", "build", "index.js");
  const env = prismaEnv(opts.databaseUrl ? { DATABASE_URL: opts.databaseUrl } : {});
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [cli, ...args], {
      cwd: root,
      env,
      stdio: opts.inherit ? "inherit" : ["ignore", "pipe", "pipe"],
    });
    let stdout = "";
    let stderr = "";
    child.stdout?.on("data", (d: Buffer) => (stdout += d.toString()));
    child.stderr?.on("data", (d: Buffer) => (stderr += d.toString()));
    child.on("error", reject);
    child.on("close", (code) => resolve({ code: code ?? 1, stdout, stderr }));
  });
}

/** An advisory lock key of our own (Prisma's is 72707369): "probebook migrate". */
const MIGRATE_LOCK_KEY = 0x70626d67;

/**
 * Applies committed migrations with Prisma's own `migrate deploy`, one process at a time per
 * database. Prisma takes an advisory lock too, but gives up after 10 s, and applying the
 * migrations from scratch takes longer than that: instances started together would fail with
 * P1002. Held on a connection of its own, this lock waits as long as the migrations take; the
 * next holder then finds nothing left to apply. Closing the connection releases it.
 */
export async function migrateDeploy(databaseUrl: string): Promise<void> {
  const lock = new pg.Client({ connectionString: databaseUrl, application_name: "probebook migrate lock" });
  await lock.connect();
  try {
    await lock.query("SELECT pg_advisory_lock($1)", [MIGRATE_LOCK_KEY]);
    const r = await runPrismaCli(["migrate", "deploy"], { databaseUrl });
    if (r.code !== 0) {
      throw new Error(`prisma migrate deploy failed (exit ${r.code}):\n${r.stdout}${r.stderr}`);
    }
  } finally {
    await lock.end().catch(() => undefined);
  }
}
