// fio's per-second logs (--write_bw_log / --write_iops_log / --write_lat_log with
// --log_avg_msec=1000), as the agent appends them to the output: one file per kind and job,
// "probebook_bw.2.log", lines "msec, value, direction, block size, offset" with direction 0 read,
// 1 write, 2 trim. bw is KiB/s, iops operations per second, clat ns (averaged over the second).
import type { CollectedFile } from "../core/collected-files";
import type { Measurement } from "../core/types";

const KINDS = { bw: { metric: "bw_series", unit: "B/s", scale: 1024 }, iops: { metric: "iops_series", unit: "1/s", scale: 1 }, clat: { metric: "clat_mean_series", unit: "ns", scale: 1 } } as const;
type Kind = keyof typeof KINDS;
const DIRECTION = ["read", "write", "trim"] as const;
const NAME_RE = /_(bw|iops|clat)\.(\d+)\.log$/;
// A week of seconds per job, direction and kind: far beyond any run the timeouts allow.
const MAX_SAMPLES = 7 * 86400;

export const SERIES_METRICS = Object.values(KINDS).map((k) => k.metric);

interface Sample {
  ms: number;
  value: number;
}

/** Samples per direction of one file, in file order. */
function readLog(content: string): Map<string, Sample[]> {
  const out = new Map<string, Sample[]>();
  for (const line of content.split("\n")) {
    const f = line.split(",").map((s) => s.trim());
    if (f.length < 3) continue;
    const [ms, value, dir] = [Number(f[0]), Number(f[1]), Number(f[2])];
    const direction = DIRECTION[dir];
    if (!Number.isFinite(ms) || !Number.isFinite(value) || !direction || f[0] === "" || f[1] === "") continue;
    const list = out.get(direction) ?? [];
    if (list.length < MAX_SAMPLES) list.push({ ms, value });
    out.set(direction, list);
  }
  return out;
}

/**
 * One series per kind and direction over all jobs: a job's k-th sample covers its k-th second,
 * so the jobs' k-th samples are summed (bandwidth, IOPS) or averaged (latency), at the mean of
 * their timestamps. `t` is seconds since the job started, to the millisecond.
 */
export function logSeries(files: readonly CollectedFile[], job: string): Measurement[] {
  const byKind = new Map<Kind, Map<string, Sample[][]>>();
  for (const file of files) {
    const m = NAME_RE.exec(file.name);
    if (!m) continue;
    const kind = m[1] as Kind;
    const perDir = byKind.get(kind) ?? new Map<string, Sample[][]>();
    byKind.set(kind, perDir);
    for (const [direction, samples] of readLog(file.content)) perDir.set(direction, [...(perDir.get(direction) ?? []), samples]);
  }
  const out: Measurement[] = [];
  for (const [kind, perDir] of byKind) {
    const { metric, unit, scale } = KINDS[kind];
    for (const direction of DIRECTION) {
      const jobs = perDir.get(direction);
      if (!jobs) continue;
      const n = Math.max(...jobs.map((j) => j.length));
      for (let k = 0; k < n; k++) {
        const at = jobs.map((j) => j[k]).filter((s): s is Sample => s !== undefined);
        const sum = at.reduce((a, s) => a + s.value, 0);
        const value = (kind === "clat" ? sum / at.length : sum) * scale;
        const t = Math.round(at.reduce((a, s) => a + s.ms, 0) / at.length) / 1000;
        out.push({ metric, value, unit, dims: { job, direction, t } });
      }
    }
  }
  return out;
}
