// CPU accounting from /proc: a process's own user+system ticks (children excluded, so a probe's
// CPU is never billed to the agent that ran it) and the whole machine's busy share.
import { execFileSync } from "node:child_process";
import fs from "node:fs";

let clkTck: number | null = null;

/** Clock ticks per second (`getconf CLK_TCK`, 100 on Linux nearly always). */
export function ticksPerSecond(): number {
  if (clkTck === null) {
    try {
      clkTck = Number(execFileSync("getconf", ["CLK_TCK"], { encoding: "utf8" }).trim()) || 100;
    } catch {
      clkTck = 100;
    }
  }
  return clkTck;
}

/** Fields of /proc/<pid>/stat after the "(comm)" one, which may itself contain spaces. */
function statFields(pid: number): string[] | null {
  try {
    const text = fs.readFileSync(`/proc/${pid}/stat`, "utf8");
    return text.slice(text.lastIndexOf(")") + 2).split(" ");
  } catch {
    return null;
  }
}

/** utime and stime of the process itself (all its threads, not its children), in ticks; null once it is gone. */
export function processTimes(pid: number): { user: number; system: number } | null {
  const f = statFields(pid);
  // After "(comm)": state is field 3, so utime (14) and stime (15) are at indexes 11 and 12.
  return f ? { user: Number(f[11]), system: Number(f[12]) } : null;
}

/** utime + stime of the process itself, in ticks; null once it is gone. */
export function processTicks(pid: number): number | null {
  const t = processTimes(pid);
  return t ? t.user + t.system : null;
}

/** Direct children of a process (every thread's children, from /proc/<pid>/task/*). */
export function childPids(pid: number): number[] {
  const out: number[] = [];
  try {
    for (const tid of fs.readdirSync(`/proc/${pid}/task`)) {
      const text = fs.readFileSync(`/proc/${pid}/task/${tid}/children`, "utf8").trim();
      if (text) out.push(...text.split(/\s+/).map(Number));
    }
  } catch {
    // gone
  }
  return out;
}

export function commandLine(pid: number): string {
  try {
    return fs.readFileSync(`/proc/${pid}/cmdline`, "utf8").split("\0").join(" ").trim();
  } catch {
    return "";
  }
}

/**
 * Machine-wide jiffies from /proc/stat: busy (user, nice, system, irq, softirq), of which
 * processes (user + nice + system, what utime/stime of processes add up to) and interrupts
 * (irq + softirq: loopback TCP, block I/O completion); steal (the hypervisor ran someone else:
 * not busy here, but a noisy neighbour); and total.
 */
export function machineTicks(): { busy: number; processes: number; irq: number; steal: number; total: number } {
  const line = fs.readFileSync("/proc/stat", "utf8").split("\n")[0]!;
  const [user = 0, nice = 0, system = 0, idle = 0, iowait = 0, irq = 0, softirq = 0, steal = 0] = line.trim().split(/\s+/).slice(1).map(Number);
  return { busy: user + nice + system + irq + softirq, processes: user + nice + system, irq: irq + softirq, steal, total: user + nice + system + idle + iowait + irq + softirq + steal };
}

/** Starts a machine-wide CPU meter; the returned function gives the busy share of all cores in %. */
export function machineCpuMeter(): () => number {
  const a = machineTicks();
  return () => {
    const b = machineTicks();
    return b.total > a.total ? (100 * (b.busy - a.busy)) / (b.total - a.total) : 0;
  };
}

export function descendants(pid: number): number[] {
  const out: number[] = [];
  const walk = (p: number) => {
    for (const c of childPids(p)) {
      out.push(c);
      walk(c);
    }
  };
  walk(pid);
  return out;
}

export function commName(pid: number): string {
  try {
    return fs.readFileSync(`/proc/${pid}/comm`, "utf8").trim();
  } catch {
    return "";
  }
}

/** Named sets of processes whose CPU is split out in a phase (listed afresh at each reading). */
export type PidGroups = () => Record<string, number[]>;

/**
 * Starts a meter of CPU per group of processes, plus this process as "bench", every other process
 * on the machine as "other" (kernel threads writing back WAL, or a shared machine's other work,
 * which distorts the phase), interrupt handling as "irq" and hypervisor steal as "steal"; the
 * returned function gives % of one core per entry over the interval. A process that exits during
 * the interval (a short-lived PostgreSQL backend) loses its ticks to "other".
 */
export function groupCpuMeter(groups: PidGroups): () => Record<string, number> {
  const hz = ticksPerSecond();
  const read = () => {
    const out: Record<string, Map<number, number>> = {};
    for (const [name, pids] of Object.entries(groups())) {
      out[name] = new Map(pids.map((p) => [p, processTicks(p) ?? 0]));
    }
    return out;
  };
  const a = read();
  const m0 = machineTicks();
  const t0 = performance.now();
  const self0 = process.cpuUsage();
  return () => {
    const b = read();
    const sec = (performance.now() - t0) / 1000;
    const result: Record<string, number> = {};
    for (const [name, pids] of Object.entries(b)) {
      let ticks = 0;
      for (const [pid, t] of pids) ticks += t - (a[name]?.get(pid) ?? 0);
      result[name] = (100 * ticks) / hz / sec;
    }
    const self = process.cpuUsage(self0);
    result.bench = (self.user + self.system) / 1e4 / sec;
    const m1 = machineTicks();
    const pct = (ticks: number) => (100 * ticks) / hz / sec;
    result.other = Math.max(0, pct(m1.processes - m0.processes) - Object.values(result).reduce((x, y) => x + y, 0));
    result.irq = pct(m1.irq - m0.irq);
    result.steal = pct(m1.steal - m0.steal);
    return result;
  };
}

function allPids(): number[] {
  return fs
    .readdirSync("/proc")
    .filter((n) => /^\d+$/.test(n))
    .map(Number);
}

/**
 * Names the processes behind "other": the busiest processes outside the groups and this one over
 * the interval (at least minPct % of a core each), as "next-build 80". On a shared machine it
 * tells a contaminated phase from a clean one.
 */
export function busiestOthersMeter(groups: PidGroups, minPct = 5): () => string[] {
  const hz = ticksPerSecond();
  const a = new Map(allPids().map((p) => [p, processTicks(p) ?? 0]));
  const t0 = performance.now();
  return () => {
    const sec = (performance.now() - t0) / 1000;
    const mine = new Set([process.pid, ...Object.values(groups()).flat()]);
    // Summed by name; kernel threads (no command line: kworkers writing back WAL, jbd2) as one.
    const byName = new Map<string, number>();
    for (const p of allPids()) {
      if (mine.has(p)) continue;
      const pct = (100 * ((processTicks(p) ?? 0) - (a.get(p) ?? 0))) / hz / sec;
      if (pct <= 0) continue;
      const name = commandLine(p) ? commName(p) || String(p) : "kernel threads";
      byName.set(name, (byName.get(name) ?? 0) + pct);
    }
    return [...byName]
      .filter(([, pct]) => pct >= minPct)
      .sort((x, y) => y[1] - x[1])
      .slice(0, 3)
      .map(([name, pct]) => `${name} ${pct.toFixed(0)}`);
  };
}
