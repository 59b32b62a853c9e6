// `probebook-agent --install-tools`: installs the probe tools this host lacks with its
// distribution's package manager — only as root and only when asked — and says what it did.
import { spawn } from "node:child_process";
import { findOnPath } from "../profile/exec-tool";
import { installCommand, installPlan, LAB_TOOLS, PROBE_TOOLS, readOsRelease, shellLine, type OsRelease, type SystemTool } from "../profile/install-commands";

export interface InstallToolsEnv {
  isRoot: boolean;
  /** The PATH the agent finds its tools on. */
  pathEnv: string | undefined;
  osRelease: OsRelease | null;
  /** Runs one command to completion; resolves to its exit code. */
  run: (argv: string[]) => Promise<number>;
  say: (line: string) => void;
  /** `--lab` was given too: the lab's mkfs tools count as wanted (without them it offers fewer file systems). */
  lab?: boolean;
}

async function missingTools(pathEnv: string | undefined, tools: readonly SystemTool[]): Promise<SystemTool[]> {
  const found = await Promise.all(tools.map((t) => findOnPath(t, pathEnv)));
  return tools.filter((_, i) => found[i] === null);
}

/** Exit code: 0 all tools present (now), 1 something failed or is still missing, 2 not root. */
export async function installTools(env: InstallToolsEnv): Promise<number> {
  const wanted = env.lab ? [...PROBE_TOOLS, ...LAB_TOOLS] : PROBE_TOOLS;
  const missing = await missingTools(env.pathEnv, wanted);
  if (missing.length === 0) {
    env.say(`every probe tool is installed (${PROBE_TOOLS.join(", ")})${env.lab ? ` and the lab's (${LAB_TOOLS.join(", ")})` : ""}; nothing to do`);
    return 0;
  }
  const where = env.osRelease?.prettyName ?? env.osRelease?.id ?? "this host";
  env.say(`missing on ${where}: ${missing.join(", ")}`);
  if (!env.isRoot) {
    env.say(`--install-tools installs packages and needs root: run it with sudo, or install them yourself:`);
    env.say(`  ${installCommand(env.osRelease, missing)}`);
    return 2;
  }
  const plan = installPlan(env.osRelease, missing);
  for (const step of plan.steps) {
    env.say(`running ${shellLine(step.argv)}   (${step.why})`);
    const code = await env.run(step.argv);
    if (code !== 0) {
      env.say(`${step.argv[0]} failed (exit ${code}); nothing after it was run`);
      return 1;
    }
  }
  if (plan.packages.length > 0) env.say(`installed or already present: ${plan.packages.join(" ")}`);
  for (const m of plan.manual) env.say(`${m.tool}: no package here — ${m.how}`);
  const still = await missingTools(env.pathEnv, wanted);
  if (still.length === 0) {
    env.say(`every ${env.lab ? "probe and lab" : "probe"} tool is installed now; the agent reports them when it starts or re-checks`);
    return 0;
  }
  env.say(`still not on PATH (${env.pathEnv ?? ""}): ${still.join(", ")}`);
  return 1;
}

/** Runs argv with inherited output and the system directories on PATH (package managers live in sbin). */
export function runCommand(argv: string[]): Promise<number> {
  const PATH = [process.env.PATH, "/usr/local/sbin", "/usr/local/bin", "/usr/sbin", "/usr/bin", "/sbin", "/bin"].filter(Boolean).join(":");
  return new Promise((resolve) => {
    const child = spawn(argv[0]!, argv.slice(1), { stdio: ["ignore", "inherit", "inherit"], env: { ...process.env, PATH, DEBIAN_FRONTEND: "noninteractive" } });
    child.on("error", (err) => {
      process.stderr.write(`probebook-agent: ${argv[0]}: ${err.message}\n`);
      resolve(127);
    });
    child.on("exit", (code) => resolve(code ?? 1));
  });
}

/** The entry `--install-tools` calls: this process's user, PATH and /etc/os-release. */
export async function installToolsHere(opts: { lab?: boolean } = {}): Promise<number> {
  return installTools({
    lab: opts.lab ?? false,
    isRoot: process.getuid?.() === 0,
    pathEnv: process.env.PATH,
    osRelease: await readOsRelease(),
    run: runCommand,
    say: (line) => process.stdout.write(`probebook-agent: ${line}\n`),
  });
}
