// Parsers for the kernel's counters in /proc and /sys. Each takes the file's text and returns
// raw cumulative counters; rates come from two snapshots (./rates.ts). All are total: text they
// do not recognise gives zeros or null, never an exception, because a kernel we have not seen
// must not stop a probe.

export interface CpuCounters {
  user: number;
  nice: number;
  system: number;
  idle: number;
  iowait: number;
  irq: number;
  softirq: number;
  steal: number;
  guest: number;
  guestNice: number;
}

/** The aggregate "cpu" line of /proc/stat (USER_HZ ticks). */
export function parseProcStat(text: string): CpuCounters | null {
  const line = text.split("\n").find((l) => l.startsWith("cpu "));
  if (!line) return null;
  const v = line.trim().split(/\s+/).slice(1).map(Number);
  const at = (i: number) => (Number.isFinite(v[i]) ? (v[i] as number) : 0);
  return {
    user: at(0),
    nice: at(1),
    system: at(2),
    idle: at(3),
    iowait: at(4),
    irq: at(5),
    softirq: at(6),
    steal: at(7),
    guest: at(8),
    guestNice: at(9),
  };
}

export interface DiskCounters {
  reads: number;
  sectorsRead: number;
  msReading: number;
  writes: number;
  sectorsWritten: number;
  msWriting: number;
  /** Milliseconds during which at least one I/O was in flight (io_ticks). */
  msBusy: number;
  /** Weighted milliseconds: each in-flight I/O counts (time_in_queue). */
  msWeighted: number;
}

/**
 * One device's line of /proc/diskstats (Documentation/admin-guide/iostats.rst): fields 1–11
 * after major, minor and name have been there since 2.6; discard and flush fields that later
 * kernels append are not needed here.
 */
export function parseDiskstats(text: string, device: string): DiskCounters | null {
  for (const line of text.split("\n")) {
    const f = line.trim().split(/\s+/);
    if (f[2] !== device || f.length < 14) continue;
    const n = f.slice(3).map(Number);
    if (n.slice(0, 11).some((x) => !Number.isFinite(x))) return null;
    return {
      reads: n[0] as number,
      sectorsRead: n[2] as number,
      msReading: n[3] as number,
      writes: n[4] as number,
      sectorsWritten: n[6] as number,
      msWriting: n[7] as number,
      msBusy: n[9] as number,
      msWeighted: n[10] as number,
    };
  }
  return null;
}

/** "Key: value kB" lines of /proc/meminfo (and of a NUMA node's meminfo, after its prefix). */
export function parseMeminfo(text: string): Record<string, number> {
  const out: Record<string, number> = {};
  for (const line of text.split("\n")) {
    const m = /^(?:Node \d+ )?([A-Za-z0-9_()]+):\s+(\d+)/.exec(line.trim());
    if (m) out[m[1] as string] = Number(m[2]);
  }
  return out;
}

export interface PagingCounters {
  pgpgin: number;
  pgpgout: number;
  majflt: number;
  pgscank: number;
  pgscand: number;
  pgsteal: number;
  /** Pages dirtied and written back since boot: equal rates mean writers are paced by write-back. */
  dirtied: number;
  written: number;
  /** The kernel's current global dirty limits in pages (gauges, not counters). */
  dirtyThreshold: number;
  backgroundThreshold: number;
}

/**
 * /proc/vmstat. Scans and steals are summed over the per-zone names older kernels print
 * (pgscan_kswapd_normal, …) and the single names newer ones print (pgscan_kswapd). The newer
 * per-type breakdowns (pgscan_anon/file, pgsteal_anon/file) repeat the same pages and
 * pgscan_direct_throttle counts throttling events, not pages, so they are left out; so are
 * khugepaged's and proactive (memory.reclaim) scans, which sar does not count either.
 */
export function parseVmstat(text: string): PagingCounters {
  const out: PagingCounters = { pgpgin: 0, pgpgout: 0, majflt: 0, pgscank: 0, pgscand: 0, pgsteal: 0, dirtied: 0, written: 0, dirtyThreshold: 0, backgroundThreshold: 0 };
  for (const line of text.split("\n")) {
    const [key, raw] = line.trim().split(/\s+/);
    if (!key || raw === undefined) continue;
    const value = Number(raw);
    if (!Number.isFinite(value)) continue;
    if (key === "pgpgin") out.pgpgin = value;
    else if (key === "pgpgout") out.pgpgout = value;
    else if (key === "pgmajfault") out.majflt = value;
    else if (key === "nr_dirtied") out.dirtied = value;
    else if (key === "nr_written") out.written = value;
    else if (key === "nr_dirty_threshold") out.dirtyThreshold = value;
    else if (key === "nr_dirty_background_threshold") out.backgroundThreshold = value;
    else if (key.startsWith("pgscan_kswapd")) out.pgscank += value;
    else if (key.startsWith("pgscan_direct") && key !== "pgscan_direct_throttle") out.pgscand += value;
    else if (key.startsWith("pgsteal_kswapd") || key.startsWith("pgsteal_direct")) out.pgsteal += value;
  }
  return out;
}
