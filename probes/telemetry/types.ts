// What the agent records about the machine once a second while a probe runs. Units follow
// sar/iostat so a user can set a sample beside their own `sar` or `iostat -x` output:
// cpu in % of all CPUs, device rates per second with kB = 1024 bytes, awaits in ms,
// memory in kB, paging in pages per second except pgpgin/pgpgout (kB/s, as sar -B).

export interface CpuSample {
  usr: number;
  sys: number;
  iowait: number;
  idle: number;
  steal: number;
}

export interface DeviceSample {
  name: string;
  rs: number;
  ws: number;
  rkBs: number;
  wkBs: number;
  rAwait: number;
  wAwait: number;
  aquSz: number;
  util: number;
}

export interface MemorySample {
  free: number;
  available: number;
  cached: number;
  dirty: number;
  writeback: number;
}

export interface PagingSample {
  pgpgin: number;
  pgpgout: number;
  majflt: number;
  pgscank: number;
  pgscand: number;
  pgsteal: number;
}

/** Write-back pacing, from /proc/vmstat: kB/s dirtied and written, and the kernel's limits in kB. */
export interface WritebackSample {
  dirtiedKBs: number;
  writtenKBs: number;
  limitKb: number;
  backgroundLimitKb: number;
}

export interface TelemetrySample {
  /** Seconds since the probe started. */
  t: number;
  cpu: CpuSample;
  /** Null when the target has no block device (tmpfs) or it could not be found. */
  device: DeviceSample | null;
  memory: MemorySample;
  paging: PagingSample;
  writeback: WritebackSample;
  /** Free kB per NUMA node, only on machines with more than one node. */
  numaFree?: Record<string, number>;
}
