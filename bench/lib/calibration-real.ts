// Real experiments for the verdict calibration: real agents on this machine (as root, with a lab
// dir), experiments created and decided by the server over its HTTP API, fio runs of ≥ 5 s.
//  - A/A: two arms that cannot differ. Either two directories of one file system ({ target }),
//    or two lab ext4 volumes made the same way (the server takes identical arms when both are
//    labelled: an A/A control).
//  - Positive controls with a known direction: O_DIRECT 4 KiB random writes into a new file on lab
//    ext4 against the same on ext4 mounted "sync", where all I/O, the metadata of each block the
//    file gains included, is done synchronously (mount(8), "sync"). Measured by hand here: 5× slower
//    on a disk-backed loop device, 2.9× on a tmpfs-backed one. O_DIRECT keeps the runs light on the
//    CPU, so two agents do not flag each other's runs as disturbed (probes/checks).
import { spawn } from "node:child_process";
import fs from "node:fs";
import path from "node:path";
import type { UserApi } from "./api";
import { onCleanup } from "./cleanup";
import { root } from "./server";

export interface CalibrationAgent {
  index: number;
  hostId: string;
  pid: number;
  dirs: [string, string];
  stop(): Promise<void>;
}

/**
 * A real agent (`npm run agent`'s entry) with two allowed dirs and a lab dir under `baseDir`: the
 * project's disk for the first agent, /dev/shm for a second one, so that two agents never share a
 * device (a run would otherwise see the other agent's I/O on its device and be flagged, rightly,
 * as disturbed).
 */
export async function startCalibrationAgent(user: UserApi, index: number, baseDir: string): Promise<CalibrationAgent> {
  const dir = path.join(baseDir, `agent-${index}`);
  const dirs: [string, string] = [path.join(dir, "a"), path.join(dir, "b")];
  const lab = path.join(dir, "lab");
  const state = path.join(dir, "state");
  for (const d of [...dirs, lab, state]) fs.mkdirSync(d, { recursive: true });
  const host = await user.createHost(`calibration-${index}-${Date.now()}`);
  const child = spawn(process.execPath, ["--import", "tsx", "probes/agent/main.ts", "--server", user.base, "--allow", dirs.join(","), "--lab", lab, "--state-dir", state], {
    cwd: root,
    env: { ...process.env, PROBEBOOK_AGENT_TOKEN: host.registrationToken },
    stdio: ["ignore", "pipe", "pipe"],
  });
  let out = "";
  child.stdout.on("data", (d: Buffer) => (out = (out + d.toString()).slice(-8000)));
  child.stderr.on("data", (d: Buffer) => (out = (out + d.toString()).slice(-8000)));
  const stop = onCleanup(`agent ${index}`, async () => {
    if (child.exitCode === null && child.signalCode === null) {
      // SIGTERM: the agent ends its job and puts its lab back (unmount, detach the loop, remove the image).
      await new Promise<void>((resolve) => {
        const t = setTimeout(() => child.kill("SIGKILL"), 60_000);
        child.once("exit", () => (clearTimeout(t), resolve()));
        child.kill("SIGTERM");
      });
    }
  });
  for (let waited = 0; !/registered as host/.test(out); waited += 200) {
    if (child.exitCode !== null) throw new Error(`agent ${index} exited (${child.exitCode}):\n${out}`);
    if (waited > 30_000) throw new Error(`agent ${index} did not register within 30 s:\n${out}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  return { index, hostId: host.id, pid: child.pid!, dirs, stop };
}

export type Kind = "aa-dirs" | "aa-lab" | "positive-sync";

export interface PlannedExperiment {
  n: number;
  kind: Kind;
  workload: string;
  params: Record<string, unknown>;
  arms: Record<string, unknown>[];
}

const fioBase = (runtimeSec: number) => ({ sizeMiB: 128, runtimeSec, ioengine: "psync", iodepth: 1, numjobs: 1 });
const AA_WORKLOADS = [
  { name: "randread 4k direct", rw: "randread", blockSizeKiB: 4, direct: true },
  { name: "write 1m direct", rw: "write", blockSizeKiB: 1024, direct: true },
  { name: "randwrite 4k direct", rw: "randwrite", blockSizeKiB: 4, direct: true },
];
const POSITIVE_WORKLOADS = [{ name: "randwrite 4k direct", rw: "randwrite", blockSizeKiB: 4, direct: true }];

/**
 * A/A experiments alternate dirs and lab volumes and cycle the workloads; the positive controls
 * are spread among them (two A/A, one positive, …), so a run cut short by --max-minutes still
 * holds both kinds in proportion.
 */
export function planExperiments(aa: number, positive: number, runtimeSec: number): PlannedExperiment[] {
  const ordered = planInOrder(aa, positive, runtimeSec);
  const aas = ordered.filter((p) => p.kind !== "positive-sync");
  const pos = ordered.filter((p) => p.kind === "positive-sync");
  const mixed: PlannedExperiment[] = [];
  while (aas.length || pos.length) {
    const takePositive = pos.length > 0 && (mixed.length % 3 === 2 || aas.length === 0);
    mixed.push(takePositive ? pos.shift()! : (aas.shift() ?? pos.shift()!));
  }
  return mixed.map((p, n) => ({ ...p, n }));
}

function planInOrder(aa: number, positive: number, runtimeSec: number): PlannedExperiment[] {
  const plan: PlannedExperiment[] = [];
  for (let i = 0; i < aa; i++) {
    const w = AA_WORKLOADS[Math.floor(i / 2) % AA_WORKLOADS.length]!;
    const kind: Kind = i % 2 === 0 ? "aa-dirs" : "aa-lab";
    const arms = kind === "aa-lab" ? [{ label: "ext4-a", fs: "ext4" }, { label: "ext4-b", fs: "ext4" }] : [{ label: "dir-a" }, { label: "dir-b" }];
    plan.push({ n: plan.length, kind, workload: w.name, params: { ...fioBase(runtimeSec), rw: w.rw, blockSizeKiB: w.blockSizeKiB, direct: w.direct }, arms });
  }
  for (let i = 0; i < positive; i++) {
    const w = POSITIVE_WORKLOADS[i % POSITIVE_WORKLOADS.length]!;
    plan.push({
      n: plan.length,
      kind: "positive-sync",
      workload: w.name,
      params: { ...fioBase(runtimeSec), rw: w.rw, blockSizeKiB: w.blockSizeKiB, direct: w.direct },
      arms: [{ label: "ext4", fs: "ext4" }, { label: "ext4-sync", fs: "ext4", mountOptions: ["sync"] }],
    });
  }
  return plan;
}

export interface Line {
  metric: string;
  baseline: string;
  arm: string;
  /** collecting (fewer than 3 valid runs in an arm: no ratio), decided, no-difference-detected. */
  state?: string;
  ratio: number | null;
  ciLow: number | null;
  ciHigh: number | null;
  confidence: number | null;
  runs: { baseline: number; arm: number };
}

export interface ExperimentOutcome {
  n: number;
  kind: Kind;
  workload: string;
  hostIndex: number;
  id: string | null;
  status: string;
  decision: string | null;
  lines: Line[];
  runsPerArm: number[];
  minutes: number;
  error?: string;
}

interface ExperimentJson {
  status: string;
  decision: string | null;
  arms: { label: string; runIds: string[] }[];
  verdict: Line[];
}

/** Creates the experiment on the agent's host and waits until the server's stopping rule ends it. */
export async function runPlanned(user: UserApi, agent: CalibrationAgent, p: PlannedExperiment, repeats: { min: number; max: number }, timeoutMin: number): Promise<ExperimentOutcome> {
  const t0 = Date.now();
  const base = { n: p.n, kind: p.kind, workload: p.workload, hostIndex: agent.index, lines: [], runsPerArm: [] };
  const arms = p.kind === "aa-dirs" ? p.arms.map((a, i) => ({ ...a, target: agent.dirs[i] })) : p.arms;
  let id: string;
  try {
    ({ id } = await user.request<{ id: string }>("POST", "/api/experiments", { hostId: agent.hostId, probe: "fio", title: `calibration ${p.n} ${p.kind} ${p.workload}`, params: p.params, arms, repeats }));
  } catch (err) {
    return { ...base, id: null, status: "NOT CREATED", decision: null, minutes: 0, error: err instanceof Error ? err.message : String(err) };
  }
  for (;;) {
    const e = await user.request<ExperimentJson>("GET", `/api/experiments/${id}`);
    const minutes = (Date.now() - t0) / 60_000;
    if (e.status !== "RUNNING" || minutes > timeoutMin) {
      if (e.status === "RUNNING") await user.request("POST", `/api/experiments/${id}/cancel`).catch(() => undefined);
      return { ...base, id, status: e.status === "RUNNING" ? "TIMED OUT" : e.status, decision: e.decision, lines: e.verdict, runsPerArm: e.arms.map((a) => a.runIds.length), minutes };
    }
    await new Promise((r) => setTimeout(r, 3000));
  }
}

/** bw and iops are better higher, clat_p99 lower (probes/fio/headline.ts). */
const lowerIsBetter = (metric: string) => metric.startsWith("clat");

/** The slow arm's line points the right way: its throughput below 1, its latency above. */
export function rightDirection(l: Line): boolean {
  if (l.ciLow === null || l.ciHigh === null) return false;
  return lowerIsBetter(l.metric) ? l.ciLow > 1 : l.ciHigh < 1;
}
/** The line states a difference: what the page and the API call "decided". */
export const excludesOne = (l: Line) => (l.state !== undefined ? l.state === "decided" : l.ciLow !== null && l.ciHigh !== null && (l.ciLow > 1 || l.ciHigh < 1));
