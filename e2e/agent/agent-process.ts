import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";

const root = path.resolve(__dirname, "..", "..");

export interface AgentHandle {
  child: ChildProcess;
  stateDir: string;
  scratch: string;
  output: () => string;
  stop(signal?: NodeJS.Signals): Promise<void>;
}

/** A real agent process (the same entry as `npm run agent`) against the e2e server. */
export function startAgent(opts: { server: string; token?: string; stateDir?: string; scratch?: string; allow?: string[]; extraArgs?: string[]; env?: Record<string, string> }): AgentHandle {
  const stateDir = opts.stateDir ?? fs.mkdtempSync(path.join(os.tmpdir(), "pb-agent-state-"));
  // On the project's disk, not /tmp, which may be tmpfs: "disk" runs must measure a disk.
  fs.mkdirSync(path.join(root, ".data"), { recursive: true });
  const scratch = opts.scratch ?? fs.mkdtempSync(path.join(root, ".data", "e2e-agent-scratch-"));
  // `node --import tsx` runs the agent in this very process (the tsx CLI would fork a child), so
  // SIGKILL reaches the agent itself, as kill -9 on a host would.
  const args = ["--import", "tsx", "probes/agent/main.ts", "--server", opts.server, "--allow", (opts.allow ?? [scratch, "/dev/shm"]).join(","), "--state-dir", stateDir, ...(opts.extraArgs ?? [])];
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
