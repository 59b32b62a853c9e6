// The operations surface of a real server process (scripts/serve.ts over the e2e build and
// database): HOST, JSON logs with request ids, /metrics behind METRICS_TOKEN moving as a real
// agent's dd run streams, liveness and readiness, and refusal of bad settings at start.
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import { readDatabaseUrlFile } from "../../lib/runtime/database-url-file";
import { metricValue, parseMetrics, type Scrape } from "../../lib/testing/prometheus";
import { removeAgent, startAgent, type AgentHandle } from "../agent/agent-process";
import { expect, test } from "../fixtures";
import { apiTokenFor, bearer, e2eDataDir } from "../helpers";

const root = path.resolve(__dirname, "..", "..");
const METRICS_TOKEN = "e2e-metrics-token-0123456789";

test.describe.configure({ mode: "serial" });

let server: ChildProcess | null = null;
let stdout = "";
let base = "";
let agent: AgentHandle | null = null;

/** A port nobody listens on now. */
async function freePort(): Promise<number> {
  const s = net.createServer();
  await new Promise<void>((r) => s.listen(0, "127.0.0.1", r));
  const { port } = s.address() as net.AddressInfo;
  await new Promise((r) => s.close(r));
  return port;
}

/** The server's environment: the e2e server's database and data dir (the session key is in that database). */
function serverEnv(extra: Record<string, string>): NodeJS.ProcessEnv {
  return {
    ...process.env,
    NODE_ENV: "production",
    NEXT_TELEMETRY_DISABLED: "1",
    PROBEBOOK_DATA_DIR: e2eDataDir,
    DATABASE_URL: readDatabaseUrlFile(e2eDataDir) ?? "",
    ...extra,
  };
}

/** A non-loopback IPv4 address of this machine, which a server bound to 127.0.0.1 must not answer on. */
const outsideAddress = () =>
  Object.values(os.networkInterfaces())
    .flat()
    .find((a) => a && a.family === "IPv4" && !a.internal)?.address;

const connects = (host: string, port: number) =>
  new Promise<boolean>((resolve) => {
    const s = net.connect({ host, port, timeout: 2000 });
    s.once("connect", () => (s.destroy(), resolve(true)));
    s.once("error", () => resolve(false));
    s.once("timeout", () => (s.destroy(), resolve(false)));
  });

const scrape = async (): Promise<Scrape> => {
  const r = await fetch(`${base}/metrics`, { headers: bearer(METRICS_TOKEN) });
  expect(r.status).toBe(200);
  return parseMetrics(await r.text());
};

/** The JSON lines the server has written so far. */
const jsonLines = () =>
  stdout
    .split("\n")
    .filter((l) => l.startsWith("{"))
    .map((l) => JSON.parse(l) as Record<string, unknown>);

test.beforeAll(async () => {
  const port = await freePort();
  base = `http://127.0.0.1:${port}`;
  server = spawn(process.execPath, ["--import", "tsx", "scripts/serve.ts"], {
    cwd: root,
    env: serverEnv({ PORT: String(port), HOST: "127.0.0.1", LOG_FORMAT: "json", METRICS_TOKEN }),
    stdio: ["ignore", "pipe", "pipe"],
  });
  server.stdout?.on("data", (d: Buffer) => (stdout += d.toString()));
  server.stderr?.on("data", (d: Buffer) => (stdout += d.toString()));
  await expect
    .poll(async () => (await fetch(`${base}/api/health/ready`).catch(() => null))?.status ?? 0, { timeout: 60_000, intervals: [250] })
    .toBe(200);
});

test.afterAll(async () => {
  await removeAgent(agent);
  if (server && server.exitCode === null) {
    server.kill("SIGTERM");
    await new Promise((r) => server!.once("exit", r));
  }
});

test("HOST=127.0.0.1 listens on the loopback only, where the default listens everywhere", async ({ baseURL }) => {
  const outside = outsideAddress();
  test.skip(!outside, "this machine has no non-loopback IPv4 address");
  const port = Number(new URL(base).port);
  expect(await connects("127.0.0.1", port)).toBe(true);
  expect(await connects(outside!, port)).toBe(false);
  // The e2e server, started without HOST: the same probe reaches it from outside.
  expect(await connects(outside!, Number(new URL(baseURL!).port))).toBe(true);
  expect(jsonLines().find((l) => typeof l.msg === "string" && l.msg.startsWith("serving on"))).toMatchObject({ level: "info", msg: `serving on 127.0.0.1:${port} (agent socket at /api/agent/socket)` });
});

test("liveness and readiness, and /api/health as before", async ({ request }) => {
  const live = await request.get("/api/health/live");
  expect(live.status()).toBe(200);
  expect(await live.json()).toEqual({ status: "ok" });
  const ready = await request.get("/api/health/ready");
  expect(ready.status()).toBe(200);
  expect(await ready.json()).toEqual({ status: "ready", checks: { database: "ok", migrations: "ok", instance: "ok" } });
  expect((await request.get("/api/health")).status()).toBe(200);
});

test("/api/version names the release, the schema and the agents this server accepts", async ({ request }) => {
  const r = await request.get("/api/version");
  expect(r.status()).toBe(200);
  const v = (await r.json()) as { server: string; schema: string; agent: { current: string; protocol: { current: number; accepted: { min: number; max: number } } } };
  expect(v.server).toMatch(/^\d+\.\d+\.\d+/);
  expect(v.schema).toMatch(/^\d{14}_\w+$/);
  expect(v.agent.protocol.accepted.max).toBe(v.agent.protocol.current);
  expect(v.agent.protocol.accepted.min).toBeLessThanOrEqual(v.agent.protocol.current);
});

test("/metrics asks for METRICS_TOKEN when it is set, and is open without it", async ({ request }) => {
  for (const headers of [{}, bearer("e2e-metrics-token-0123456780"), { Authorization: `Basic ${METRICS_TOKEN}` }]) {
    const r = await fetch(`${base}/metrics`, { headers });
    expect(r.status).toBe(401);
    expect(((await r.json()) as { error: string }).error).toContain("METRICS_TOKEN");
  }
  const ok = await fetch(`${base}/metrics`, { headers: bearer(METRICS_TOKEN) });
  expect(ok.headers.get("content-type")).toBe("text/plain; version=0.0.4; charset=utf-8");
  expect(parseMetrics(await ok.text()).families.get("probebook_runs")?.type).toBe("GAUGE");
  // The e2e server has no METRICS_TOKEN; its answer is held against the API document (fixtures).
  const open = await request.get("/metrics");
  expect(open.status()).toBe(200);
  expect(parseMetrics(await open.text()).families.has("process_cpu_seconds_total")).toBe(true);
});

test("a real agent's dd run moves the metrics: chunks, bytes, telemetry, claims, parse time, runs by status", async () => {
  test.setTimeout(120_000);
  const token = await apiTokenFor("operator");
  const created = await fetch(`${base}/api/hosts`, { method: "POST", headers: { ...bearer(token), "content-type": "application/json" }, body: JSON.stringify({ name: `ops-${Date.now()}` }) });
  expect(created.status).toBe(201);
  const { id: hostId, registrationToken } = (await created.json()) as { id: string; registrationToken: string };
  const before = await scrape();
  agent = startAgent({ server: base, token: registrationToken });
  await expect.poll(() => agent!.output(), { timeout: 20_000 }).toContain("registered as host");
  await expect.poll(async () => metricValue(await scrape(), "probebook_agent_sockets"), { timeout: 20_000 }).toBe(1);
  const launched = await fetch(`${base}/api/runs`, {
    method: "POST",
    headers: { ...bearer(token), "content-type": "application/json" },
    body: JSON.stringify({ hostId, probe: "dd", params: { target: "/dev/shm", sizeMiB: 64, blockSizeKiB: 1024, mode: "write", direct: false, fdatasync: true } }),
  });
  expect(launched.status, await launched.clone().text()).toBe(201);
  const runId = ((await launched.json()) as { ids: string[] }).ids[0]!;
  await expect
    .poll(async () => ((await (await fetch(`${base}/api/runs/${runId}`, { headers: bearer(token) })).json()) as { status: string }).status, { timeout: 60_000 })
    .toBe("SUCCEEDED");
  const after = await scrape();
  const grew = (name: string, labels: Record<string, string> = {}) => metricValue(after, name, labels) - metricValue(before, name, labels);
  expect(grew("probebook_chunks_ingested_total")).toBeGreaterThanOrEqual(1);
  expect(grew("probebook_chunk_bytes_ingested_total")).toBeGreaterThan(50); // dd's summary line at least
  expect(grew("probebook_chunk_batch_seconds")).toBeGreaterThanOrEqual(1);
  expect(grew("probebook_telemetry_samples_ingested_total")).toBeGreaterThanOrEqual(1);
  expect(grew("probebook_claim_wait_seconds", { outcome: "job" })).toBe(1);
  expect(grew("probebook_parse_seconds", { tool: "dd", outcome: "parsed" })).toBe(1);
  // Queued, then running, then neither.
  expect(metricValue(after, "probebook_runs", { status: "RUNNING" })).toBe(metricValue(before, "probebook_runs", { status: "RUNNING" }));
  expect(metricValue(after, "probebook_hosts_online")).toBeGreaterThanOrEqual(1);
});

test("JSON log lines parse and carry the request id, which the answer echoes", async () => {
  const sent = await fetch(`${base}/api/runs?limit=1`, { headers: { "x-request-id": "e2e-ops.req_1" } });
  expect(sent.headers.get("x-request-id")).toBe("e2e-ops.req_1");
  const unsafe = await fetch(`${base}/api/me`, { headers: { "x-request-id": "no spaces allowed" } });
  const fresh = unsafe.headers.get("x-request-id")!;
  expect(fresh).toMatch(/^[0-9a-f-]{36}$/);
  await expect.poll(() => jsonLines().filter((l) => l.requestId === "e2e-ops.req_1" || l.requestId === fresh).length).toBe(2);
  expect(jsonLines().find((l) => l.requestId === "e2e-ops.req_1")).toMatchObject({ level: "info", method: "GET", path: "/api/runs", status: 401, pid: server!.pid });
  expect(jsonLines().find((l) => l.requestId === fresh)).toMatchObject({ path: "/api/me", status: 200 });
  // Every line the server wrote is one JSON object (Next.js's own start-up lines included, or none).
  const lines = stdout.split("\n").filter((l) => l.trim() !== "");
  expect(lines.filter((l) => !l.startsWith("{")), "lines that are not JSON").toEqual([]);
  for (const l of jsonLines()) expect(typeof l.time === "string" && typeof l.level === "string" && typeof l.msg === "string", JSON.stringify(l)).toBe(true);
});

test("a bad operations setting stops the server at start, naming the variable", () => {
  for (const [name, value] of [["HOST", "example.com"], ["LOG_FORMAT", "xml"], ["LOG_LEVEL", "loud"], ["METRICS_TOKEN", "short"], ["QUEUE_OFFLINE_TIMEOUT_MIN", "soon"]] as const) {
    const r = spawnSync(process.execPath, ["--import", "tsx", "scripts/serve.ts"], { cwd: root, env: serverEnv({ PORT: "1", [name]: value }), encoding: "utf8", timeout: 30_000 });
    expect(r.status, `${name}=${value}`).toBe(1);
    expect(r.stdout + r.stderr).toContain(`${name} must`);
  }
});
