// The agent's own /proc and /sys reader. Chosen over sysstat's sadc because it needs nothing
// installed (probes run on hosts without sysstat), reads only the target's device instead of every
// device and interface, and costs five small file reads per second — well inside the 1 %-of-a-
// core budget — without a second process whose output would need parsing again.
import fs from "node:fs";
import path from "node:path";
import { parseDiskstats, parseMeminfo, parseProcStat, parseVmstat, type CpuCounters, type DiskCounters, type PagingCounters } from "./proc-text";
import { cpuRates, deviceRates, pagingRates, writebackRates } from "./rates";
import type { TelemetrySample } from "./types";

export interface SamplerOptions {
  /** Block device name as /proc/diskstats prints it (e.g. "vda", "loop3"), or null for none. */
  device: string | null;
  /** Root of the /proc and /sys trees; tests point it at a copy. */
  root?: string;
  /** Clock in ms; tests drive it. */
  now?: () => number;
  /** Page size in kB; read from the kernel when not given. */
  pageKb?: number;
}

interface Snapshot {
  at: number;
  cpu: CpuCounters | null;
  disk: DiskCounters | null;
  paging: PagingCounters;
  meminfo: Record<string, number>;
  numaFree: Record<string, number> | undefined;
}

/**
 * Synchronous on purpose: /proc and /sys files are made by the kernel on read and never wait for
 * a disk, and the promise form costs several thread-pool round trips per file, which was most of
 * the sampler's CPU.
 */
function readText(file: string): string {
  try {
    return fs.readFileSync(file, "utf8");
  } catch {
    return "";
  }
}

/** The kernel's page size, from the first mapping's KernelPageSize; 4 kB when unreadable. */
function pageSizeKb(root: string): number {
  const m = /KernelPageSize:\s+(\d+) kB/.exec(readText(path.join(root, "proc/self/smaps")));
  return m ? Number(m[1]) : 4;
}

function numaFree(root: string): Record<string, number> | undefined {
  const dir = path.join(root, "sys/devices/system/node");
  let entries: string[] = [];
  try {
    entries = fs.readdirSync(dir);
  } catch {
    // no NUMA information
  }
  const nodes = entries.filter((n) => /^node\d+$/.test(n));
  if (nodes.length < 2) return undefined;
  const out: Record<string, number> = {};
  for (const node of nodes.sort((a, b) => Number(a.slice(4)) - Number(b.slice(4)))) {
    const free = parseMeminfo(readText(path.join(dir, node, "meminfo"))).MemFree;
    if (free !== undefined) out[node.slice(4)] = free;
  }
  return out;
}

export class TelemetrySampler {
  private readonly root: string;
  private readonly now: () => number;
  private readonly startedAt: number;
  private prev: Snapshot | null = null;
  private pageKb = 4;

  constructor(private readonly options: SamplerOptions) {
    this.root = options.root ?? "/";
    this.now = options.now ?? Date.now;
    this.startedAt = this.now();
  }

  private snapshot(): Snapshot {
    const p = (f: string) => path.join(this.root, f);
    const stat = readText(p("proc/stat"));
    const diskstats = this.options.device ? readText(p("proc/diskstats")) : "";
    const vmstat = readText(p("proc/vmstat"));
    const meminfo = readText(p("proc/meminfo"));
    const numa = numaFree(this.root);
    return {
      at: this.now(),
      cpu: parseProcStat(stat),
      disk: this.options.device ? parseDiskstats(diskstats, this.options.device) : null,
      paging: parseVmstat(vmstat),
      meminfo: parseMeminfo(meminfo),
      numaFree: numa,
    };
  }

  /** Takes the first snapshot; rates start from here. */
  async start(): Promise<void> {
    this.pageKb = this.options.pageKb ?? pageSizeKb(this.root);
    this.prev = this.snapshot();
  }

  /** One sample of the interval since the previous call (or start), or null before start. */
  async sample(): Promise<TelemetrySample | null> {
    const cur = this.snapshot();
    const prev = this.prev;
    this.prev = cur;
    if (!prev || !prev.cpu || !cur.cpu) return null;
    const seconds = (cur.at - prev.at) / 1000;
    const m = cur.meminfo;
    const device = this.options.device && prev.disk && cur.disk ? deviceRates(this.options.device, prev.disk, cur.disk, seconds) : null;
    const sample: TelemetrySample = {
      t: Math.round((cur.at - this.startedAt) / 10) / 100,
      cpu: cpuRates(prev.cpu, cur.cpu),
      device,
      memory: { free: m.MemFree ?? 0, available: m.MemAvailable ?? 0, cached: m.Cached ?? 0, dirty: m.Dirty ?? 0, writeback: m.Writeback ?? 0 },
      paging: pagingRates(prev.paging, cur.paging, seconds),
      writeback: writebackRates(prev.paging, cur.paging, seconds, this.pageKb),
    };
    if (cur.numaFree) sample.numaFree = cur.numaFree;
    return sample;
  }
}
