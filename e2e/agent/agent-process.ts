import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { expect, type Page } from "@playwright/test";

const root = path.resolve(__dirname, "..", "..");

export interface AgentHandle {
  child: ChildProcess;
  stateDir: string;
  scratch: string;
  output: () => string;
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/** A real agent process (the same entry as `npm run agent`) against the e2e server. */
export function startAgent(opts: {
  server: string;
  token?: string;
  stateDir?: string;
  scratch?: string;
  allow?: string[];
  /** --transport: the agent's own default (auto: the socket, HTTP when it cannot connect) when unset. */
  transport?: "auto" | "socket" | "http";
  extraArgs?: string[];
  env?: Record<string, string>;
}): AgentHandle {
  const stateDir = opts.stateDir ?? fs.mkdtempSync(path.join(os.tmpdir(), "pb-agent-state-"));
  // On the project's disk, not /tmp, which may be tmpfs: "disk" runs must measure a disk.
  fs.mkdirSync(path.join(root, ".data"), { recursive: true });
  const scratch = opts.scratch ?? fs.mkdtempSync(path.join(root, ".data", "e2e-agent-scratch-"));
  // `node --import tsx` runs the agent in this very process (the tsx CLI would fork a child), so
  // SIGKILL reaches the agent itself, as kill -9 on a host would.
  // A test's teardown stops its agent at once (the run in flight is cancelled, as before the stop
  // grace existed) unless the test asks for a grace itself: e2e/agent/stopping.spec.ts tests that.
  const grace = (opts.extraArgs ?? []).some((a) => a.startsWith("--stop-grace")) ? [] : ["--stop-grace", "0"];
  const args = ["--import", "tsx", "probes/agent/main.ts", "--server", opts.server, "--allow", (opts.allow ?? [scratch, "/dev/shm"]).join(","), "--state-dir", stateDir, ...(opts.transport ? ["--transport", opts.transport] : []), ...grace, ...(opts.extraArgs ?? [])];
  // The token through the environment, as the dashboard's command passes it (not readable in ps).
  const env = { ...process.env, ...(opts.token ? { PROBEBOOK_AGENT_TOKEN: opts.token } : {}), ...opts.env };
  const child = spawn(process.execPath, args, { cwd: root, env, stdio: ["ignore", "pipe", "pipe"] });
  let out = "";
  child.stdout?.on("data", (d: Buffer) => (out += d.toString()));
  child.stderr?.on("data", (d: Buffer) => (out += d.toString()));
  return {
    child,
    stateDir,
    scratch,
    output: () => out,
    stop: (signal = "SIGTERM") =>
      new Promise<void>((resolve) => {
        if (child.exitCode !== null || child.signalCode !== null) return resolve();
        child.once("exit", () => resolve());
        child.kill(signal);
      }),
  };
}

/**
 * Adds a host on /hosts/new as the signed-in page's user, starts its agent with the one-time
 * registration token (as the dashboard's command does) and waits until the agent has registered.
 */
export async function addHostWithAgent(page: Page, opts: { baseURL: string; name: string } & Omit<Parameters<typeof startAgent>[0], "server" | "token">): Promise<{ agent: AgentHandle; hostId: string }> {
  const { baseURL, name, ...agentOpts } = opts;
  await page.goto("/hosts/new");
  await page.getByLabel("Host name").fill(`${name}-${Date.now()}`);
  await page.getByRole("button", { name: "Add host" }).click();
  const token = (await page.getByTestId("registration-token").textContent())!.trim();
  const agent = startAgent({ server: baseURL, token, ...agentOpts });
  await expect.poll(() => agent.output(), { timeout: 20_000 }).toContain("registered as host");
  return { agent, hostId: /\(([0-9a-f-]{36})\)/.exec(agent.output())![1]! };
}

/** Stops an agent and removes its state and scratch directories. */
export async function removeAgent(agent: AgentHandle | null): Promise<void> {
  if (!agent) return;
  await agent.stop();
  for (const dir of [agent.scratch, agent.stateDir]) fs.rmSync(dir, { recursive: true, force: true });
}
