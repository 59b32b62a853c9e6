import { spawn, type ChildProcess } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { createHost, reissueRegistration } from "../server/hosts/create-host";
import { projectRoot } from "./paths";

interface StoredCredential {
  server?: string;
  hostId?: string;
}

function readCredential(file: string): StoredCredential | null {
  try {
    return JSON.parse(fs.readFileSync(file, "utf8")) as StoredCredential;
  } catch {
    return null;
  }
}

/**
 * Registers this machine as a host (once) and runs an agent for it, so a new user can launch a
 * first run right after `npm start`. Allowed: a scratch dir in the data dir (the disk) and
 * /dev/shm (memory). PROBEBOOK_LOCAL_AGENT=0 turns it off.
 */
export async function startLocalAgent(opts: { port: number; dataDir: string; log: (m: string) => void }): Promise<ChildProcess | null> {
  if (process.env.PROBEBOOK_LOCAL_AGENT === "0") return null;
  const stateDir = path.join(opts.dataDir, "agent");
  const scratch = path.join(opts.dataDir, "scratch");
  fs.mkdirSync(scratch, { recursive: true });
  const allow = [scratch, ...(fs.existsSync("/dev/shm") && fs.statSync("/dev/shm").isDirectory() ? ["/dev/shm"] : [])];
  const server = `http://127.0.0.1:${opts.port}`;
  const credFile = path.join(stateDir, "credential.json");
  const cred = readCredential(credFile);
  let token: string | null = null;
  if (!cred) {
    token = (await createHost({ name: `${os.hostname()} (this machine)` })).registrationToken;
  } else if (cred.server?.replace(/\/+$/, "") !== server && cred.hostId) {
    // Same host, new address (PORT changed): re-register it instead of creating another host.
    token = (await reissueRegistration({ hostId: cred.hostId, actor: "local-agent" })).registrationToken;
    fs.rmSync(credFile, { force: true });
  }
  const tsx = path.join(projectRoot, "node_modules", "tsx", "dist", "cli.mjs");
  const child = spawn(process.execPath, [tsx, "probes/agent/main.ts", "--server", server, "--allow", allow.join(","), "--state-dir", stateDir], {
    cwd: projectRoot,
    env: { ...process.env, ...(token ? { PROBEBOOK_AGENT_TOKEN: token } : {}) },
    stdio: ["ignore", "inherit", "inherit"],
    detached: true,
  });
  opts.log(`local agent started (allowed: ${allow.join(", ")})`);
  return child;
}
