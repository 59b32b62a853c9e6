// `npm start`: database (embedded unless DATABASE_URL), migrations, seed, build if needed, serve.
import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import { consoleToLog, log as appLog } from "../lib/log";
import { opsSettingsProblems } from "../lib/runtime/ops-settings";
import { openDatabase, type OpenDatabase } from "../lib/runtime/open-database";
import { migrateDeploy } from "../lib/runtime/prisma-cli";
import { ensureSessionSecret } from "../lib/runtime/session-secret";
import { buildStaleReason, serveCommand, runNextBuild } from "../lib/runtime/next-build";
import { buildCli, CLI_BUNDLE } from "./build-cli";
import { agentBuildStaleReason, canBuildAgent, runAgentBuild } from "../lib/runtime/agent-build";
import { dataDir, projectRoot } from "../lib/runtime/paths";
import { seedDatabase } from "../prisma/seed";
import { LOCAL_AGENT_STOP_GRACE_SEC, LOCAL_AGENT_STOP_MS, startLocalAgent } from "../lib/runtime/local-agent";
import { stopProcessGroup, type Supervisor } from "../lib/runtime/supervise";
import { RELAY_WINDOW_MS, StopSignals } from "../probes/agent/stop-signals";
import { probeToolsHint } from "../lib/runtime/probe-tools-hint";

// The app's logger: "[probebook] …" lines as before, or JSON lines with LOG_FORMAT=json, so that
// a log collector reading a container's output meets no plain line from start-up either.
const log = (msg: string) => appLog().info(msg);

function parsePort(raw: string | undefined): number {
  const port = Number(raw ?? "3000");
  if (!Number.isInteger(port) || port < 1 || port > 65535) {
    throw new Error(`PORT must be a whole number from 1 to 65535, got "${raw}"`);
  }
  return port;
}

async function waitForHealth(port: number, child: ChildProcess): Promise<boolean> {
  for (let i = 0; i < 600; i++) {
    if (child.exitCode !== null) return false;
    try {
      const r = await fetch(`http://127.0.0.1:${port}/api/health`);
      if (r.ok) return true;
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 200));
  }
  return false;
}

const children: ChildProcess[] = [];
let localAgent: Supervisor | null = null;
let database: OpenDatabase | null = null;
let stopping = false;

/**
 * Stops the local agent first and waits while it lets its run finish (the web server stays up,
 * so the run's output and finish reach it), then the web server, then the embedded PostgreSQL:
 * nothing is left running. `hurry`: the web server is gone, the agent need not wait for it.
 */
async function shutdown(code: number, hurry = false): Promise<void> {
  if (stopping) return;
  stopping = true;
  log("stopping…");
  if (localAgent) {
    if (!hurry && localAgent.current()) log(`stopping the local agent: a run in progress may finish first (up to ${LOCAL_AGENT_STOP_GRACE_SEC} s); Ctrl-C again to stop it at once`);
    const stop = localAgent.stop(LOCAL_AGENT_STOP_MS);
    // The second signal after the agent's relay window, or it would count as a copy of the first.
    const agent = localAgent;
    if (hurry) setTimeout(() => agent.hurry(), RELAY_WINDOW_MS + 100);
    await stop;
  }
  // Whole process groups, SIGKILL after 5 s: a hanging web server must not keep the port.
  await Promise.all(children.map((c) => stopProcessGroup(c, 5000)));
  await database?.close().catch((err: unknown) => appLog().error("could not stop the database", { err }));
  log("stopped");
  process.exit(code);
}

// One Ctrl-C reaches this process from the terminal and again from npm's relay: copies count as
// one. A deliberate second request stops the local agent at once (its spool keeps the rest).
const stops = new StopSignals();
function onStopSignal(): void {
  const action = stops.receive();
  if (action === "copy") return;
  if (action === "now") {
    log("stopping the local agent at once: what it has not delivered stays in its spool for its next start");
    localAgent?.hurry();
    return;
  }
  void shutdown(0);
}

async function main() {
  const dev = process.argv.includes("--dev");
  const port = parsePort(process.env.PORT);
  // The operations variables (HOST, LOG_*, METRICS_TOKEN, QUEUE_OFFLINE_TIMEOUT_MIN) are checked
  // before the database starts, each wrong one named; the server checks them again on its own.
  const problems = opsSettingsProblems(process.env);
  if (problems.length > 0) throw new Error(problems.join("; "));
  consoleToLog();
  process.on("SIGINT", onStopSignal);
  process.on("SIGTERM", onStopSignal);

  log(`data dir: ${dataDir()}`);
  database = await openDatabase({ log: (l) => (process.env.PROBEBOOK_VERBOSE ? log(`postgres: ${l}`) : undefined) });
  log(database.embedded ? `embedded PostgreSQL on 127.0.0.1:${database.embedded.port}` : "using the PostgreSQL server from DATABASE_URL");
  await migrateDeploy(database.url);
  log("migrations applied");
  // After the migrations: without SESSION_SECRET the key lives in the database (instance_secrets).
  const sessionSecret = await ensureSessionSecret(database.url, { log });
  const seeded = await seedDatabase(database.url);
  log(`${seeded.referenceRuns} reference runs from the guides are in place`);
  if (seeded.users === 0) {
    log("no users yet: create one with  npm run admin -- user create --email you@example.com --password '…' --role admin");
  }

  const env: NodeJS.ProcessEnv = {
    ...process.env,
    DATABASE_URL: database.url,
    SESSION_SECRET: sessionSecret,
    NEXT_TELEMETRY_DISABLED: "1",
    PORT: String(port),
  };
  if (!dev) {
    const reason = buildStaleReason();
    if (reason) {
      log(`building the app (${reason})…`);
      await runNextBuild(env);
    }
  }
  const agentReason = agentBuildStaleReason();
  if (agentReason && canBuildAgent()) {
    // Not fatal: without it the one-line install answers 404 naming `npm run build:agent`.
    log(`building the agent executable for the one-line install (${agentReason})…`);
    await runAgentBuild(env).catch((err: unknown) => log(`${err instanceof Error ? err.message : String(err)}: hosts can still run the agent from a checkout`));
  }
  if (!fs.existsSync(CLI_BUNDLE)) {
    // Not fatal either: GET /api/cli/probebook.cjs then answers 404 naming `npm run build:cli`.
    log("building the one-file CLI the server hands out at /api/cli/probebook.cjs…");
    await buildCli().catch((err: unknown) => log(`the CLI build failed: ${err instanceof Error ? err.message : String(err)}`));
  }
  const next = spawn(process.execPath, serveCommand({ dev }), {
    cwd: projectRoot,
    env: dev ? env : { ...env, NODE_ENV: "production" },
    stdio: "inherit",
    // A process group of its own, so that a stop reaches the server process next forks.
    detached: true,
  });
  children.push(next);
  next.on("exit", (code) => {
    if (!stopping) {
      log(`the web server exited (${code ?? "signal"})`);
      void shutdown(code ?? 1, true);
    }
  });
  if ((await waitForHealth(port, next)) && !stopping) {
    process.env.DATABASE_URL = database.url;
    // Restarted with backoff when it crashes; one instance per machine runs it (local-agent.ts).
    localAgent = startLocalAgent({ port, dataDir: dataDir(), log, databaseUrl: database.url });
    if (process.env.PROBEBOOK_LOCAL_AGENT !== "0") for (const line of await probeToolsHint()) log(line);
    log(`ready on http://localhost:${port}`);
  }
}

main().catch((err: unknown) => {
  appLog().error(`could not start: ${err instanceof Error ? err.message : String(err)}`);
  void shutdown(1);
});
