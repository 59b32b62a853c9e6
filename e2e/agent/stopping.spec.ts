// Stopping well: Ctrl-C as a terminal sends it (SIGINT to the whole foreground process group,
// which npm then relays once more) on `npm run agent` and on `npm start` with its local agent,
// in the middle of a run. The run must end SUCCEEDED or CANCELLED with nothing lost: every chunk
// seq stored, the finish received, the log complete.
import { spawn, type ChildProcess } from "node:child_process";
import crypto from "node:crypto";
import fs from "node:fs";
import net from "node:net";
import os from "node:os";
import path from "node:path";
import pg from "pg";
import type { APIRequestContext } from "@playwright/test";
import { expect, test } from "../fixtures";
import { apiTokenFor, bearer, e2eDataDir } from "../helpers";
import { readDatabaseUrlFile } from "../../lib/runtime/database-url-file";
import { startAgent } from "./agent-process";

const root = path.resolve(__dirname, "..", "..");
test.describe.configure({ mode: "serial" });

/** A process started as a terminal starts a foreground job: a process group of its own. */
interface Job {
  child: ChildProcess;
  output: () => string;
  /** The exit code, or the signal: npm, interrupted, ends itself with the signal once its script has exited. */
  exited: Promise<number | NodeJS.Signals | null>;
  /** Ctrl-C: the signal to every process of the group at once. */
  interrupt(): void;
}

function startJob(command: string, args: string[], env: Record<string, string>): Job {
  const child = spawn(command, args, { cwd: root, env: { ...process.env, NO_COLOR: "1", ...env }, detached: true, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  child.stdout!.on("data", (d: Buffer) => (out += d.toString()));
  child.stderr!.on("data", (d: Buffer) => (out += d.toString()));
  const exited = new Promise<number | NodeJS.Signals | null>((resolve) => child.once("exit", (code, signal) => resolve(code ?? signal)));
  jobs.push(child);
  return { child, output: () => out, exited, interrupt: () => process.kill(-child.pid!, "SIGINT") };
}

const jobs: ChildProcess[] = [];
const dirs: string[] = [];
test.afterAll(() => {
  for (const c of jobs) {
    if (c.exitCode === null && c.signalCode === null) {
      try {
        process.kill(-c.pid!, "SIGKILL");
      } catch {
        // gone
      }
    }
  }
  for (const d of dirs) fs.rmSync(d, { recursive: true, force: true });
});

function tempDir(tag: string): string {
  fs.mkdirSync(path.join(root, ".data"), { recursive: true });
  const d = fs.mkdtempSync(path.join(root, ".data", `e2e-stop-${tag}-`));
  dirs.push(d);
  return d;
}

async function within<T>(p: Promise<T>, ms: number, what: string, output: () => string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => (timer = setTimeout(() => reject(new Error(`${what} took over ${ms} ms:\n${output().slice(-3000)}`)), ms)));
  try {
    return await Promise.race([p, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

async function storedSeqs(runId: string): Promise<number[]> {
  const client = new pg.Client({ connectionString: readDatabaseUrlFile(e2eDataDir)! });
  await client.connect();
  try {
    const { rows } = await client.query<{ seq: number }>("SELECT seq FROM run_log_chunks WHERE run_id = $1::uuid ORDER BY seq", [runId]);
    return rows.map((r) => r.seq);
  } finally {
    await client.end();
  }
}

// fio for a fixed time on /dev/shm (buffered: tmpfs has no O_DIRECT): long enough to be
// interrupted in the middle, short enough to finish within the stop grace.
const timedFio = (runtimeSec: number) => ({ probe: "fio", params: { target: "/dev/shm", rw: "randread", sizeMiB: 16, runtimeSec, direct: false } });

async function launch(request: APIRequestContext, base: string, token: string, hostId: string, runtimeSec: number): Promise<string> {
  const r = await request.post(`${base}/api/runs`, { headers: bearer(token), data: { hostId, ...timedFio(runtimeSec) } });
  expect(r.status(), await r.text()).toBe(201);
  return ((await r.json()) as { id: string }).id;
}

const runOf = async (request: APIRequestContext, token: string, id: string) =>
  (await (await request.get(`/api/runs/${id}`, { headers: bearer(token) })).json()) as { status: string; error: string | null; exitCode: number | null };

/** Waits until the run is RUNNING and has streamed some output, so the stop lands in its middle. */
async function runningWithOutput(request: APIRequestContext, token: string, id: string): Promise<void> {
  await expect.poll(async () => (await runOf(request, token, id)).status, { timeout: 30_000 }).toBe("RUNNING");
  await expect.poll(async () => (await storedSeqs(id)).length, { timeout: 15_000 }).toBeGreaterThan(0);
}

/** Nothing lost: seqs 0..n all stored, the finish received (a final status), fio's report at the end of the log. */
async function expectComplete(request: APIRequestContext, token: string, id: string, statuses: string[]): Promise<string> {
  await expect.poll(async () => (await runOf(request, token, id)).status, { timeout: 30_000 }).not.toMatch(/^(QUEUED|RUNNING)$/);
  const run = await runOf(request, token, id);
  expect(statuses, `status ${run.status}: ${run.error}`).toContain(run.status);
  const seqs = await storedSeqs(id);
  expect(seqs.length).toBeGreaterThan(0);
  expect(seqs).toEqual(Array.from({ length: seqs.length }, (_, i) => i));
  const log = await (await request.get(`/api/runs/${id}/log`, { headers: bearer(token) })).text();
  if (run.status === "SUCCEEDED") expect(log).toContain("Run status group 0");
  return run.status;
}

test("Ctrl-C on a running `npm run agent`: it claims nothing more, the run finishes SUCCEEDED and is delivered whole; a second Ctrl-C exits at once", async ({ request, baseURL }) => {
  test.setTimeout(180_000);
  const token = await apiTokenFor("operator");
  const created = await request.post("/api/hosts", { headers: bearer(token), data: { name: `ctrl-c-${Date.now()}` } });
  expect(created.status()).toBe(201);
  const { id: hostId, registrationToken } = (await created.json()) as { id: string; registrationToken: string };
  const stateDir = tempDir("state");
  const scratch = tempDir("scratch");
  const agentArgs = ["run", "agent", "--", "--server", baseURL!, "--allow", `${scratch},/dev/shm`, "--state-dir", stateDir];

  const agent = startJob("npm", agentArgs, { PROBEBOOK_AGENT_TOKEN: registrationToken });
  await expect.poll(agent.output, { timeout: 30_000 }).toContain("registered as host");
  const id = await launch(request, baseURL!, token, hostId, 6);
  await runningWithOutput(request, token, id);
  const queued = await launch(request, baseURL!, token, hostId, 1);
  agent.interrupt();
  expect([0, "SIGINT"]).toContain(await within(agent.exited, 60_000, "the agent's stop", agent.output));
  expect(agent.output()).toContain("stopped (SIGINT received)");
  // One Ctrl-C reached it more than once (the group, then npm's relay): taken as one.
  expect(agent.output()).toContain(`SIGINT received; run ${id} may finish within 60 s, then it is cancelled`);
  expect(agent.output()).not.toContain("exiting at once");
  expect(await expectComplete(request, token, id, ["SUCCEEDED"])).toBe("SUCCEEDED");
  expect((await runOf(request, token, queued)).status).toBe("QUEUED");

  // A deliberate second Ctrl-C: out at once, the run's output waits in the spool for the next start.
  const again = startJob("npm", agentArgs, {});
  await expect.poll(again.output, { timeout: 30_000 }).toContain("signed in as host");
  // It takes the queued run first; a long one after it is the one interrupted.
  await expectComplete(request, token, queued, ["SUCCEEDED"]);
  const long = await launch(request, baseURL!, token, hostId, 60);
  await runningWithOutput(request, token, long);
  again.interrupt();
  await new Promise((r) => setTimeout(r, 1500));
  again.interrupt();
  expect([130, "SIGINT"]).toContain(await within(again.exited, 15_000, "the agent's exit at once", again.output));
  expect(again.output()).toContain("SIGINT again: exiting at once; the running probe is stopped, undelivered output stays in the spool");
  await expectProbeGone(again.output(), long);
  const next = startAgent({ server: baseURL!, stateDir, scratch });
  try {
    // Replayed from the spool: every chunk written before the exit, and a finish saying what happened.
    await expectComplete(request, token, long, ["SUCCEEDED", "CANCELLED", "FAILED", "LOST"]);
  } finally {
    await next.stop();
  }
});

/** The probe of an agent that exited at once must not go on: no process works in its run directory. */
async function expectProbeGone(output: string, runId: string): Promise<string> {
  const dir = new RegExp(`run ${runId}: \\S+ .*--directory=(\\S+)`).exec(output)?.[1];
  expect(dir, "the agent logged the probe's command line").toBeTruthy();
  const workingThere = () =>
    fs.readdirSync("/proc").filter((p) => {
      if (!/^\d+$/.test(p)) return false;
      try {
        return fs.readFileSync(`/proc/${p}/cmdline`, "utf8").includes(dir!);
      } catch {
        return false;
      }
    });
  await expect.poll(workingThere, { timeout: 5000 }).toEqual([]);
  return dir!;
}

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const s = net.createServer().listen(0, "127.0.0.1", () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });
}

test("`npm start` stopped and started again during a local-agent run: the run ends SUCCEEDED with nothing lost, and the same host comes back", async ({ request }) => {
  test.setTimeout(300_000);
  const token = await apiTokenFor("operator");
  const port = await freePort();
  const dataDir = tempDir("app");
  const env = {
    PORT: String(port),
    PROBEBOOK_DATA_DIR: dataDir,
    // The e2e server's database: this instance is a second one on it, and its local host is
    // this test's own "machine".
    DATABASE_URL: readDatabaseUrlFile(e2eDataDir)!,
    PROBEBOOK_MACHINE_ID: `e2e-stop-${crypto.randomUUID()}`,
    PROBEBOOK_LOCAL_AGENT: "1",
  };
  const base = `http://127.0.0.1:${port}`;
  const hostIdIn = (out: string) => /(?:registered|signed in) as host "[^"]*" \(([0-9a-f-]{36})\)/.exec(out)?.[1];

  const app = startJob("npm", ["start"], env);
  await expect.poll(() => hostIdIn(app.output()), { timeout: 120_000 }).toBeTruthy();
  const hostId = hostIdIn(app.output())!;
  expect(app.output()).toContain(`${os.hostname()} (this machine)`);
  const id = await launch(request, base, token, hostId, 8);
  await runningWithOutput(request, token, id);
  app.interrupt();
  expect([0, "SIGINT"]).toContain(await within(app.exited, 100_000, "npm start's stop", app.output));
  expect(app.output()).toContain("[probebook] stopped");
  expect(app.output()).toContain("stopping the local agent: a run in progress may finish first");
  expect(app.output()).toContain(`SIGTERM received; run ${id} may finish within 60 s`);
  expect(app.output()).not.toContain("exiting at once");
  expect(await expectComplete(request, token, id, ["SUCCEEDED"])).toBe("SUCCEEDED");

  const restarted = startJob("npm", ["start"], env);
  await expect.poll(() => hostIdIn(restarted.output()), { timeout: 120_000 }).toBe(hostId);
  const after = await launch(request, base, token, hostId, 1);
  await expectComplete(request, token, after, ["SUCCEEDED"]);
  expect(await expectComplete(request, token, id, ["SUCCEEDED"])).toBe("SUCCEEDED");

  // A deliberate second Ctrl-C: the local agent exits at once, its run's output kept in its spool.
  const long = await launch(request, base, token, hostId, 60);
  await runningWithOutput(request, token, long);
  restarted.interrupt();
  await new Promise((r) => setTimeout(r, 1500));
  restarted.interrupt();
  expect([0, "SIGINT"]).toContain(await within(restarted.exited, 30_000, "npm start's stop after a second Ctrl-C", restarted.output));
  expect(restarted.output()).toContain("stopping the local agent at once");
  expect(restarted.output()).toContain("SIGTERM again: exiting at once");
  // The agent's next start would remove the probe's run directory; this test starts none.
  fs.rmSync(await expectProbeGone(restarted.output(), long), { recursive: true, force: true });
  expect(fs.existsSync(path.join(dataDir, "agent", "spool", long))).toBe(true);
});
