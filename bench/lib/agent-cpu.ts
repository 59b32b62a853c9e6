// Agent CPU while streaming: a real agent process (from source through tsx, and the esbuild
// bundle scripts/build-agent.ts makes) runs a real sar probe; its own utime+stime over the run's
// active window (RUNNING → end) is the figure. sar's CPU is its own (a child, never in the
// agent's utime/stime), and tsx's start-up is over before the window opens.
import { spawn } from "node:child_process";
import fs from "node:fs";
import os from "node:os";
import path from "node:path";
import { build } from "esbuild";
import type { UserApi } from "./api";
import { onCleanup } from "./cleanup";
import { childPids, commandLine, processTimes, ticksPerSecond } from "./proc";
import { root, tsxCli } from "./server";
import { openRunEvents } from "./sse";
import { nowMs } from "./stats";

export interface AgentCpuResult {
  variant: string;
  /** The agent's CPU over the run's active window, % of one core. */
  cpuPctOfCore: number;
  /**
   * First chunk → last chunk seen by a browser: output streaming only, without the claim, guard
   * and pty spawn before it or the finish (target snapshot: findmnt, lsblk…) after it.
   */
  streamingCpuPctOfCore: number;
  streamingWindowSec: number;
  /** The same while registered and idle (heartbeats, claim long poll), % of one core. */
  idleCpuPctOfCore: number;
  windowSec: number;
  cpuTicks: number;
  /** The window's ticks split into user and kernel time. */
  userTicks: number;
  systemTicks: number;
  runStatus: string;
  chunksStreamed: number;
  bytesStreamed: number;
  /** Resident memory of the agent process at the end of the window, MiB. */
  rssMiB: number;
  /** Whether the agent sampled telemetry (the default) or ran with --no-telemetry. */
  telemetry: boolean;
  /** Telemetry samples the run's event stream delivered (one a second when on). */
  telemetrySamples: number;
}

export const SAR_STREAMING = { target: "/dev/shm", sections: ["B", "d", "r", "u"], interval: 1, count: 20 };

/** The agent bundled exactly as scripts/build-agent.ts does, but into a temp dir, so dist/ is left alone. */
export async function bundleAgent(): Promise<string> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), "pb-bench-agent-bundle-"));
  onCleanup("agent bundle dir", () => fs.rmSync(dir, { recursive: true, force: true }));
  const outfile = path.join(dir, "probebook-agent.cjs");
  await build({
    entryPoints: [path.join(root, "probes/agent/main.ts")],
    outfile,
    bundle: true,
    platform: "node",
    target: "node20",
    format: "cjs",
    external: ["node-pty"],
    legalComments: "none",
    logLevel: "warning",
  });
  return outfile;
}

function rssMiB(pid: number): number {
  try {
    const m = /VmRSS:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, "utf8"));
    return m ? Number(m[1]) / 1024 : Number.NaN;
  } catch {
    return Number.NaN;
  }
}

async function waitFor<T>(what: string, fn: () => T | null | undefined, timeoutMs: number, context: () => string): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const v = fn();
    if (v !== null && v !== undefined) return v;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}:\n${context()}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export async function measureAgentCpu(opts: {
  user: UserApi;
  serverUrl: string;
  variant: "tsx" | "bundle";
  bundle?: string;
  scratchParent: string;
  /** false: start the agent with --no-telemetry, to set the figure beside the default. */
  telemetry?: boolean;
}): Promise<AgentCpuResult> {
  const telemetry = opts.telemetry !== false;
  const host = await opts.user.createHost(`bench-agent-${opts.variant}-${Date.now().toString(36)}`);
  const stateDir = fs.mkdtempSync(path.join(os.tmpdir(), "pb-bench-agent-state-"));
  fs.mkdirSync(opts.scratchParent, { recursive: true });
  const scratch = fs.mkdtempSync(path.join(opts.scratchParent, "agent-scratch-"));
  const removeDirs = onCleanup("agent dirs", () => {
    fs.rmSync(stateDir, { recursive: true, force: true });
    fs.rmSync(scratch, { recursive: true, force: true });
  });
  const args = ["--server", opts.serverUrl, "--token", host.registrationToken, "--allow", `${scratch},/dev/shm`, "--state-dir", stateDir, ...(telemetry ? [] : ["--no-telemetry"])];
  const child =
    opts.variant === "tsx"
      ? spawn(process.execPath, [tsxCli, "probes/agent/main.ts", ...args], { cwd: root, stdio: ["ignore", "pipe", "pipe"] })
      : // node-pty stays outside the bundle; NODE_PATH lets require() find the repository's build of it.
        spawn(process.execPath, [opts.bundle!, ...args], { cwd: os.tmpdir(), stdio: ["ignore", "pipe", "pipe"], env: { ...process.env, NODE_PATH: path.join(root, "node_modules") } });
  let out = "";
  child.stdout.on("data", (d: Buffer) => (out += d.toString()));
  child.stderr.on("data", (d: Buffer) => (out += d.toString()));
  const stopAgent = onCleanup(`agent (${opts.variant})`, () =>
    new Promise<void>((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      const t = setTimeout(() => child.kill("SIGKILL"), 15_000);
      child.once("exit", () => (clearTimeout(t), resolve()));
      child.kill("SIGTERM");
    }),
  );
  try {
    await waitFor(
      "the agent to register",
      () => {
        if (child.exitCode !== null) throw new Error(`the agent exited with ${child.exitCode} before registering:\n${out}`);
        return /registered as host/.test(out) ? true : null;
      },
      60_000,
      () => out,
    );
    // tsx runs the script in a child node process; that child, not the CLI wrapper, is the agent.
    const agentPid =
      opts.variant === "tsx"
        ? await waitFor("the agent's node process", () => childPids(child.pid!).find((p) => /probes\/agent\/main\.ts/.test(commandLine(p))), 5000, () => out)
        : child.pid!;
    const hz = ticksPerSecond();
    type Sample = { ticks: number; user: number; at: number };
    const sample = (): Sample => {
      const t = processTimes(agentPid);
      return { ticks: t ? t.user + t.system : Number.NaN, user: t?.user ?? Number.NaN, at: nowMs() };
    };
    const pct = (a: Sample, b: Sample) => (100 * (b.ticks - a.ticks)) / hz / ((b.at - a.at) / 1000);

    // Idle: registered, heartbeating and long-polling for a job (3 s, so one tick is 0.33 %: a coarse figure).
    await new Promise((r) => setTimeout(r, 1000));
    const idleA = sample();
    await new Promise((r) => setTimeout(r, 3000));
    const idle = pct(idleA, sample());

    // Targeted at the scratch dir on the project's disk, so telemetry reads a real block device too.
    const [runId] = await opts.user.queueRuns(host.id, "sar", { ...SAR_STREAMING, target: scratch });
    let start: Sample | null = null;
    let firstChunk: Sample | null = null;
    let lastChunk: Sample | null = null;
    let status = "";
    let chunks = 0;
    let bytes = 0;
    let telemetrySamples = 0;
    const sse = openRunEvents(opts.serverUrl, opts.user.token, runId!, (ev) => {
      if (ev.event === "status") {
        status = ev.status.status;
        if (status === "RUNNING" && !start) start = sample();
      } else if (ev.event === "chunk") {
        lastChunk = sample();
        firstChunk ??= lastChunk;
        chunks++;
        bytes += ev.chunk.data.length;
      } else if (ev.event === "telemetry") {
        telemetrySamples += ev.samples.length;
      }
    });
    let timer: NodeJS.Timeout | undefined;
    try {
      await Promise.race([sse.done, new Promise((_, reject) => (timer = setTimeout(() => reject(new Error(`the sar run did not end in 90 s:\n${out}`)), 90_000)))]);
    } finally {
      clearTimeout(timer);
    }
    const end = sample();
    const rss = rssMiB(agentPid);
    sse.close();
    if (!start) throw new Error(`the sar run never showed RUNNING (last status ${status}):\n${out}`);
    const s: Sample = start;
    const [c0, c1] = [firstChunk as Sample | null, lastChunk as Sample | null];
    return {
      variant: opts.variant,
      cpuPctOfCore: pct(s, end),
      streamingCpuPctOfCore: c0 && c1 && c1.at > c0.at ? pct(c0, c1) : Number.NaN,
      streamingWindowSec: c0 && c1 ? (c1.at - c0.at) / 1000 : 0,
      idleCpuPctOfCore: idle,
      windowSec: (end.at - s.at) / 1000,
      cpuTicks: end.ticks - s.ticks,
      userTicks: end.user - s.user,
      systemTicks: end.ticks - s.ticks - (end.user - s.user),
      runStatus: status,
      chunksStreamed: chunks,
      bytesStreamed: bytes,
      rssMiB: rss,
      telemetry,
      telemetrySamples,
    };
  } finally {
    await stopAgent();
    await removeDirs();
  }
}
