import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import { projectRoot } from "./paths";

const SOURCE_DIRS = ["app", "components", "lib", "probes", "content", "public"];
const SOURCE_FILES = ["next.config.ts", "package-lock.json", "tsconfig.json"];

function newestMtime(p: string): number {
  let st: fs.Stats;
  try {
    st = fs.statSync(p);
  } catch {
    return 0;
  }
  if (!st.isDirectory()) return st.mtimeMs;
  let newest = 0;
  for (const entry of fs.readdirSync(p)) {
    if (entry === "node_modules" || entry.startsWith(".")) continue;
    newest = Math.max(newest, newestMtime(path.join(p, entry)));
  }
  return newest;
}

/** Why a (re)build is needed, or null when .next is current with the sources. */
export function buildStaleReason(): string | null {
  const buildId = path.join(projectRoot, ".next", "BUILD_ID");
  if (!fs.existsSync(buildId)) return "no build yet";
  const built = fs.statSync(buildId).mtimeMs;
  const newest = Math.max(...[...SOURCE_DIRS, ...SOURCE_FILES].map((p) => newestMtime(path.join(projectRoot, p))));
  return newest > built ? "sources changed since the last build" : null;
}

export function nextBin(): string {
  return path.join(projectRoot, "node_modules", "next", "dist", "bin", "next");
}

export function runNextBuild(env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [nextBin(), "build"], { cwd: projectRoot, env, stdio: "inherit" });
    child.on("error", reject);
    child.on("close", (code) => (code === 0 ? resolve() : reject(new Error(`next build failed (exit ${code})`))));
  });
}

/**
 * The command line of the app's server process (scripts/serve.ts: Next.js behind the agent
 * gateway), run by Node itself with tsx's loader, so that a signal reaches one process. Spawn it
 * with the app's root as the working directory: it serves the build found there.
 */
export function serveCommand(opts: { dev?: boolean; listenHost?: string } = {}): string[] {
  return ["--import", "tsx", "scripts/serve.ts", ...(opts.dev ? ["--dev"] : []), ...(opts.listenHost ? ["-H", opts.listenHost] : [])];
}
