import { spawn } from "node:child_process";
import fs from "node:fs";
import { createRequire } from "node:module";
import path from "node:path";
import { AGENT_VERSION } from "../../probes/agent/version";
import { agentFileName, localAgentArch } from "../server/agent-download/agent-files";
import { projectRoot } from "./paths";

const distDir = () => path.join(projectRoot, "dist", "agent");

/**
 * Why `npm start` should build the agent executable the server hands out at
 * /agent/download/<arch> (the Add-host page's one-line install fetches it), or null when the one
 * in dist/agent is this release's. Only for this machine's architecture, the one a build makes.
 */
export function agentBuildStaleReason(dir = distDir(), version = AGENT_VERSION): string | null {
  const arch = localAgentArch();
  if (!arch) return null;
  if (!fs.existsSync(path.join(dir, agentFileName(arch)))) return "no agent executable yet";
  try {
    const built = (JSON.parse(fs.readFileSync(path.join(dir, "package.json"), "utf8")) as { version?: unknown }).version;
    return built === version ? null : `the agent executable is ${String(built)}, this release's agent is ${version}`;
  } catch {
    return "the agent build has no package.json";
  }
}

/**
 * Whether this checkout can build it: postject (a dev dependency) injects the agent into Node's
 * binary. A pruned production tree (the image) has no postject, and ships dist/agent built.
 */
export function canBuildAgent(): boolean {
  try {
    createRequire(path.join(projectRoot, "package.json")).resolve("postject");
    return true;
  } catch {
    return false;
  }
}

/** `npm run build:agent`, in this process's Node. */
export function runAgentBuild(env: NodeJS.ProcessEnv): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ["--import", "tsx", "scripts/build-agent.ts"], { cwd: projectRoot, env, stdio: "inherit" });
    child.on("error", reject);
    child.on("close", (code) => (code === 0 ? resolve() : reject(new Error(`the agent build failed (exit ${code})`))));
  });
}
