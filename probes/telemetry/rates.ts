// Two snapshots of cumulative counters → one sample of rates, with iostat's and sar's formulas.
import type { CpuCounters, DiskCounters, PagingCounters } from "./proc-text";
import type { CpuSample, DeviceSample, PagingSample, WritebackSample } from "./types";

const round = (x: number, digits = 2) => {
  const f = 10 ** digits;
  return Math.round(x * f) / f;
};
/** Counters can wrap or reset (a device re-created with the same name): never report negatives. */
const delta = (a: number, b: number) => Math.max(0, b - a);

/**
 * sar -u's split: usr includes nice, sys includes hard and soft interrupts. Guest time is already
 * inside user and nice in /proc/stat, so it is not added again and the total stays 100 %.
 */
export function cpuRates(prev: CpuCounters, cur: CpuCounters): CpuSample {
  const d = (k: keyof CpuCounters) => delta(prev[k], cur[k]);
  const usr = d("user") + d("nice");
  const sys = d("system") + d("irq") + d("softirq");
  const total = d("user") + d("nice") + d("system") + d("idle") + d("iowait") + d("irq") + d("softirq") + d("steal");
  if (total === 0) return { usr: 0, sys: 0, iowait: 0, idle: 100, steal: 0 };
  const pct = (x: number) => round((100 * x) / total);
  return { usr: pct(usr), sys: pct(sys), iowait: pct(d("iowait")), idle: pct(d("idle")), steal: pct(d("steal")) };
}

/** iostat -x: sectors are always 512 bytes in diskstats, whatever the device's block size. */
export function deviceRates(name: string, prev: DiskCounters, cur: DiskCounters, seconds: number): DeviceSample {
  const d = (k: keyof DiskCounters) => delta(prev[k], cur[k]);
  const per = (x: number) => (seconds > 0 ? x / seconds : 0);
  const reads = d("reads");
  const writes = d("writes");
  return {
    name,
    rs: round(per(reads)),
    ws: round(per(writes)),
    rkBs: round(per(d("sectorsRead") / 2)),
    wkBs: round(per(d("sectorsWritten") / 2)),
    rAwait: round(reads > 0 ? d("msReading") / reads : 0),
    wAwait: round(writes > 0 ? d("msWriting") / writes : 0),
    aquSz: round(per(d("msWeighted") / 1000)),
    util: round(Math.min(100, per(d("msBusy") / 10))),
  };
}

/** sar -B: pgpgin/pgpgout are already kB in /proc/vmstat; the rest are pages. */
export function pagingRates(prev: PagingCounters, cur: PagingCounters, seconds: number): PagingSample {
  const per = (k: keyof PagingCounters) => round(seconds > 0 ? delta(prev[k], cur[k]) / seconds : 0);
  return {
    pgpgin: per("pgpgin"),
    pgpgout: per("pgpgout"),
    majflt: per("majflt"),
    pgscank: per("pgscank"),
    pgscand: per("pgscand"),
    pgsteal: per("pgsteal"),
  };
}

/** Pages → kB with the kernel's page size (4 KiB on x86-64, larger on some arm64 and ppc64 kernels). */
export function writebackRates(prev: PagingCounters, cur: PagingCounters, seconds: number, pageKb: number): WritebackSample {
  const per = (k: "dirtied" | "written") => round(seconds > 0 ? (delta(prev[k], cur[k]) * pageKb) / seconds : 0);
  return { dirtiedKBs: per("dirtied"), writtenKBs: per("written"), limitKb: cur.dirtyThreshold * pageKb, backgroundLimitKb: cur.backgroundThreshold * pageKb };
}
