// The app's process: Node's own HTTP server owns the port, gives the agent protocol (its HTTP
// routes and the agent socket) to the gateway that instrumentation.ts publishes, and hands every
// other request, and every other upgrade, to Next.js's request handler (its custom-server API).
// Started by scripts/start.ts (npm start), scripts/e2e-server.ts and the benchmarks, as
// `node --import tsx scripts/serve.ts [--dev] [-H address]` with PORT, DATABASE_URL and SESSION_SECRET set
// (HOST, LOG_FORMAT, LOG_LEVEL, METRICS_TOKEN, QUEUE_OFFLINE_TIMEOUT_MIN optional: lib/runtime/ops-settings.ts).
// Each request gets an id (X-Request-Id), echoed in the answer and handed to Next.js with it.
import http from "node:http";
import next from "next";
import { gatewayPublished } from "../lib/gateway/bridge";
import { consoleToLog, log } from "../lib/log";
import { listenHostFrom, opsSettingsProblems } from "../lib/runtime/ops-settings";
import { accessLogger, assignRequestId } from "./serve-requests";

function parsePort(raw: string | undefined): number {
  const port = Number(raw ?? "3000");
  if (!Number.isInteger(port) || port < 1 || port > 65535) throw new Error(`PORT must be a whole number from 1 to 65535, got "${raw}"`);
  return port;
}

async function main(): Promise<void> {
  const dev = process.argv.includes("--dev");
  const port = parsePort(process.env.PORT);
  // Every operations variable is checked before anything starts, each wrong one named.
  const problems = opsSettingsProblems(process.env);
  if (problems.length > 0) throw new Error(problems.join("; "));
  consoleToLog();
  // -H ADDRESS, as `next start` takes it, or HOST: the address to listen on (all interfaces without either).
  const h = process.argv.indexOf("-H");
  if (h >= 0 && !process.argv[h + 1]) throw new Error("-H needs an address to listen on, e.g. -H 127.0.0.1");
  const listenHost = h >= 0 ? listenHostFrom({ "-H": process.argv[h + 1] }, "-H") : listenHostFrom(process.env);
  // The working directory is the app: the fault tests serve a snapshot of the build from elsewhere.
  const app = next({ dev, dir: process.cwd(), hostname: "localhost", port });
  await app.prepare();
  const handle = app.getRequestHandler();
  const upgrade = app.getUpgradeHandler();
  // instrumentation.ts runs during prepare and publishes the gateway when the instance is up.
  const gateway = await gatewayPublished(60_000);
  if (!gateway) log().warn("the agent gateway did not start: agents are served over HTTP by Next.js's routes, without the socket");
  const access = accessLogger(log());
  const server = http.createServer((req, res) => {
    access(req, res, assignRequestId(req, res));
    if (gateway?.handleRequest(req, res)) return;
    void handle(req, res);
  });
  server.on("upgrade", (req, socket, head) => {
    assignRequestId(req, null);
    if (gateway?.handleUpgrade(req, socket, head)) return;
    void upgrade(req, socket, head);
  });
  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    gateway?.close();
    const closed = new Promise((resolve) => server.close(resolve));
    // Open SSE streams and held claims would keep close() waiting: give them a moment, then cut them.
    setTimeout(() => server.closeAllConnections(), 1500).unref();
    setTimeout(() => process.exit(0), 5000).unref();
    void Promise.allSettled([app.close(), closed]).then(() => process.exit(0));
  };
  process.on("SIGTERM", stop);
  process.on("SIGINT", stop);
  await new Promise<void>((resolve, reject) => {
    server.once("error", reject);
    // A deep accept queue (the kernel caps it at net.core.somaxconn): after a restart a whole fleet
    // reconnects at once, and a connection dropped from a full queue waits out TCP's own
    // retransmission backoff (1, 3, 7, 15 … s) before it tries again.
    server.listen({ port, host: listenHost, backlog: 4096 }, () => resolve());
  });
  const where = listenHost ? `${listenHost.includes(":") ? `[${listenHost}]` : listenHost}:${port}` : `port ${port}`;
  log().info(`serving on ${where}${gateway ? " (agent socket at /api/agent/socket)" : ""}`);
}

main().catch((err: unknown) => {
  log().error(`the web server could not start: ${err instanceof Error ? err.message : String(err)}`);
  process.exit(1);
});
