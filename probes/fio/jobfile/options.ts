// Which fio options a job file may use: an allow-list, each option with the values it takes.
// Option names, aliases and value types are fio's HOWTO (HOWTO.rst of axboe/fio, "Job file
// parameters"; fio.readthedocs.io). Anything not listed is refused as "not in the allow-list":
// fio has ~400 options and grows every release, and one forgotten option that runs a command or
// names a path would be enough to escape the run's directory.
import { maxSizeBytes, sizeBytes, timeSeconds } from "./units";

/** A check of one value: null when fine, else the reason. `value` is null for a bare key. */
export type ValueCheck = (value: string | null) => string | null;

const bool: ValueCheck = (v) => (v === null || /^(0|1|true|false)$/i.test(v) ? null : "takes 0 or 1");
/** An option that only switches something on (fio's bare keys such as time_based). */
const flag: ValueCheck = (v) => (v === null || /^(0|1)$/.test(v) ? null : "takes no value (or 0/1)");
const int =
  (min: number, max: number): ValueCheck =>
  (v) => {
    if (v === null || !/^\d+$/.test(v)) return `takes a whole number from ${min} to ${max}`;
    const n = Number(v);
    return n < min || n > max ? `must be from ${min} to ${max}` : null;
  };
const size: ValueCheck = (v) => (v !== null && sizeBytes(v) !== null ? null : "takes a size such as 4k, 64m or 1g");
const sizes: ValueCheck = (v) => (v !== null && maxSizeBytes(v) !== null ? null : "takes sizes such as 4k, 4k-64k or 4k,8k");
const time =
  (unit: "s" | "us" = "s"): ValueCheck =>
  (v) => (v !== null && timeSeconds(v, unit) !== null ? null : "takes a time such as 30, 10m or 500ms");
const oneOf =
  (...allowed: string[]): ValueCheck =>
  (v) => (v !== null && allowed.includes(v.toLowerCase()) ? null : `takes one of ${allowed.join(", ")}`);
const matches =
  (re: RegExp, what: string): ValueCheck =>
  (v) => (v !== null && re.test(v) ? null : `takes ${what}`);
/** A name fio turns into a file in its working directory (the run's directory): no path. */
export const PLAIN_NAME = /^[A-Za-z0-9_][A-Za-z0-9._-]{0,99}$/;
const plainNames: ValueCheck = (v) =>
  v !== null && v.split(":").every((n) => PLAIN_NAME.test(n) && n !== "..") ? null : "takes plain file names (letters, digits, . _ -; no / or ..): fio places them in the run's private directory";

/** fio's synchronous and asynchronous engines for files; the others load code, use devices or the network. */
export const ALLOWED_IOENGINES = ["sync", "psync", "vsync", "pvsync", "pvsync2", "libaio", "io_uring", "posixaio", "mmap"] as const;

const RW = ["read", "write", "randread", "randwrite", "rw", "readwrite", "randrw"];
const DIST = /^(random|zipf:\d+(\.\d+)?|pareto:\d+(\.\d+)?|normal:\d+(\.\d+)?(:\d+(\.\d+)?)?|(zoned|zoned_abs):[0-9.:/,kmgKMG%]+)$/;
/** buffer_pattern and verify_pattern: numbers or "text"; a 'quoted' name would make fio read that file. */
const PATTERN = /^(0x[0-9a-f]+|\d+|"[^"'$]*")+$/i;

/** The allow-list: option (and its aliases) → the values it takes. */
export const ALLOWED: Record<string, ValueCheck> = {
  // job description and order
  name: matches(PLAIN_NAME, "a plain job name"),
  description: (v) => (v !== null ? null : "takes a text"),
  stonewall: flag,
  wait_for_previous: flag,
  new_group: flag,
  wait_for: matches(PLAIN_NAME, "the name of an earlier job"),
  group_reporting: flag,
  startdelay: (v) => (v !== null && v.split("-").length <= 2 && v.split("-").every((t) => timeSeconds(t) !== null) ? null : "takes a time or a time range such as 5 or 1-10s"),
  exitall: flag,
  exitall_on_error: flag,
  thread: flag,
  // I/O pattern
  rw: oneOf(...RW),
  readwrite: oneOf(...RW),
  rw_sequencer: matches(/^(sequential|identical)(:\d+)?$/, "sequential or identical"),
  rwmixread: int(0, 100),
  rwmixwrite: int(0, 100),
  percentage_random: matches(/^\d{1,3}(,\d{0,3}){0,2}$/, "percentages"),
  randrepeat: bool,
  allrandrepeat: bool,
  randseed: int(0, Number.MAX_SAFE_INTEGER),
  norandommap: flag,
  softrandommap: bool,
  random_generator: oneOf("tausworthe", "lfsr", "tausworthe64"),
  random_distribution: matches(DIST, "random, zipf:θ, pareto:h, normal:σ or zoned:…"),
  offset: size,
  offset_increment: size,
  number_ios: int(1, Number.MAX_SAFE_INTEGER),
  // block sizes
  bs: sizes,
  blocksize: sizes,
  bsrange: sizes,
  blocksize_range: sizes,
  bssplit: matches(/^[0-9kmgKMGiIbB/:,]+$/, "size/percentage pairs such as 4k/60:64k/40"),
  ba: sizes,
  blockalign: sizes,
  bs_unaligned: flag,
  blocksize_unaligned: flag,
  bs_is_seq_rand: bool,
  // sizes and time (capped in validate.ts)
  size: size,
  io_size: size,
  io_limit: size,
  filesize: sizes,
  nrfiles: int(1, 1024),
  openfiles: int(1, 1024),
  file_service_type: matches(/^(random|roundrobin|sequential|zipf|pareto|normal|gauss)(:[\d.]+)?$/, "random, roundrobin or sequential"),
  runtime: time(),
  timeout: time(),
  time_based: flag,
  ramp_time: time(),
  loops: int(1, 1000),
  // engine and depth
  ioengine: oneOf(...ALLOWED_IOENGINES),
  iodepth: int(1, 1024),
  iodepth_batch: int(0, 1024),
  iodepth_batch_submit: int(0, 1024),
  iodepth_batch_complete: int(0, 1024),
  iodepth_batch_complete_min: int(0, 1024),
  iodepth_batch_complete_max: int(0, 1024),
  iodepth_low: int(0, 1024),
  numjobs: int(1, 64),
  direct: bool,
  buffered: bool,
  sync: matches(/^(0|1|none|sync|dsync)$/, "0, 1, sync or dsync"),
  fsync: int(0, 1_000_000),
  fdatasync: int(0, 1_000_000),
  end_fsync: bool,
  fsync_on_close: bool,
  invalidate: bool,
  overwrite: bool,
  fallocate: oneOf("none", "native", "posix", "keep", "truncate", "0", "1"),
  fadvise_hint: oneOf("0", "1", "sequential", "random", "normal"),
  pre_read: bool,
  create_on_open: bool,
  create_serialize: bool,
  create_fsync: bool,
  allow_file_create: bool,
  unlink: bool,
  unlink_each_loop: bool,
  file_append: bool,
  hipri: flag,
  fixedbufs: flag,
  registerfiles: flag,
  nowait: bool,
  // files, inside the run's directory only
  filename: plainNames,
  filename_format: matches(/^([A-Za-z0-9._-]|\$(jobname|jobnum|filenum|clientuid))+$/, "a plain file name with $jobname, $jobnum or $filenum (no / or ..)"),
  unique_filename: bool,
  // rate and think time
  thinktime: time("us"),
  thinktime_spin: time("us"),
  thinktime_blocks: int(1, 1_000_000),
  rate: sizes,
  rate_min: sizes,
  rate_iops: matches(/^\d*(,\d*){0,2}$/, "IOPS such as 500 or 500,200"),
  rate_iops_min: matches(/^\d*(,\d*){0,2}$/, "IOPS such as 500 or 500,200"),
  rate_process: oneOf("linear", "poisson"),
  rate_cycle: int(1, 1_000_000),
  // buffer contents
  zero_buffers: flag,
  refill_buffers: flag,
  scramble_buffers: bool,
  buffer_compress_percentage: int(0, 100),
  buffer_compress_chunk: size,
  dedupe_percentage: int(0, 100),
  buffer_pattern: matches(PATTERN, 'numbers or "text" (a quoted file name would be read from the host)'),
  // verification (the state files stay in the working directory, i.e. the run's)
  verify: oneOf("0", "md5", "crc64", "crc32c", "crc32c-intel", "crc32", "crc16", "crc7", "xxhash", "sha512", "sha256", "sha1", "sha3-224", "sha3-256", "sha3-384", "sha3-512", "meta", "pattern", "null"),
  do_verify: bool,
  verify_only: flag,
  verify_interval: size,
  verify_offset: size,
  verify_pattern: matches(PATTERN, 'numbers or "text" (a quoted file name would be read from the host)'),
  verify_fatal: bool,
  verify_backlog: int(1, 1_000_000_000),
  verify_backlog_batch: int(1, 1_000_000_000),
  verify_async: int(0, 64),
  // steady state (ends a job early)
  steadystate: matches(/^(iops|iops_slope|bw|bw_slope|lat|lat_slope):\d+(\.\d+)?%?$/i, "iops, iops_slope, bw or bw_slope with a limit, e.g. iops_slope:0.3%"),
  ss: matches(/^(iops|iops_slope|bw|bw_slope|lat|lat_slope):\d+(\.\d+)?%?$/i, "iops, iops_slope, bw or bw_slope with a limit, e.g. iops_slope:0.3%"),
  steadystate_duration: time(),
  ss_dur: time(),
  steadystate_ramp_time: time(),
  ss_ramp: time(),
  steadystate_check_interval: time(),
  ss_interval: time(),
  // reporting
  percentile_list: matches(/^\d{1,2}(\.\d+)?(:\d{1,3}(\.\d+)?){0,19}$/, "up to 20 percentiles separated by ':'"),
  clat_percentiles: bool,
  lat_percentiles: bool,
  slat_percentiles: bool,
  unified_rw_reporting: oneOf("none", "mixed", "both", "0", "1", "2"),
  disable_lat: bool,
  disable_clat: bool,
  disable_slat: bool,
  disable_bw_measurement: bool,
  disable_bw: bool,
  gtod_reduce: bool,
  // per-job logs, written in the run's directory (removed with it)
  write_bw_log: (v) => (v === null || PLAIN_NAME.test(v) ? null : "takes a plain log name: the log is written in the run's private directory"),
  write_lat_log: (v) => (v === null || PLAIN_NAME.test(v) ? null : "takes a plain log name: the log is written in the run's private directory"),
  write_iops_log: (v) => (v === null || PLAIN_NAME.test(v) ? null : "takes a plain log name: the log is written in the run's private directory"),
  write_hist_log: (v) => (v === null || PLAIN_NAME.test(v) ? null : "takes a plain log name: the log is written in the run's private directory"),
  log_avg_msec: int(0, 3_600_000),
  log_hist_msec: int(0, 3_600_000),
  per_job_logs: bool,
};

/** Options refused whatever their value, with the reason (fio's HOWTO says what each does). */
export const REFUSED: Record<string, string> = {
  exec_prerun: "runs a shell command on the host before the job",
  exec_postrun: "runs a shell command on the host after the job",
  include: "pulls in another file from the host: paste its options instead",
  directory: "places files in another directory: the agent puts every file in the run's private directory (set filename to a plain name instead)",
  opendir: "adds every file below a directory of the host: the job's files stay in the run's private directory",
  write_iolog: "writes an I/O log to a path of the host",
  read_iolog: "replays an I/O log read from the host",
  iolog: "replays an I/O log read from the host",
  merge_blktrace_file: "writes a merged block trace to a path of the host",
  replay_redirect: "replays an I/O log onto another device",
  replay_no_stall: "replays an I/O log read from the host",
  replay_align: "replays an I/O log read from the host",
  replay_scale: "replays an I/O log read from the host",
  replay_time_scale: "replays an I/O log read from the host",
  replay_skip: "replays an I/O log read from the host",
  trigger: "runs a command on the host when triggered",
  "trigger-file": "watches a file of the host to trigger a command",
  trigger_file: "watches a file of the host to trigger a command",
  "trigger-timeout": "triggers a command on the host",
  trigger_timeout: "triggers a command on the host",
  "trigger-remote": "runs a command on the host when triggered",
  trigger_remote: "runs a command on the host when triggered",
  ioscheduler: "changes the I/O scheduler of the host's device (an experiment's tunable does this, and restores it)",
  cgroup: "creates a control group on the host",
  cgroup_weight: "creates a control group on the host",
  cgroup_nodelete: "leaves a control group behind on the host",
  lockmem: "locks host memory away from everything else",
  "hugepage-size": "uses the host's huge pages",
  mem: "may map a file or huge pages of the host (mem=mmapshared:/path)",
  iomem: "may map a file or huge pages of the host (iomem=mmapshared:/path)",
  uid: "switches to another user",
  gid: "switches to another group",
  nice: "changes the job's scheduling priority (a negative value needs root)",
  prio: "changes the I/O priority of the job",
  prioclass: "changes the I/O priority class (real time starves the host)",
  fill_device: "fills the whole file system until it is full",
  fill_fs: "fills the whole file system until it is full",
  kb_base: "changes what k, m and g mean, which the size caps rely on",
  verify_state_load: "reads a verify state file from the host",
  verify_state_save: "writes verify state files outside the job's own",
  zonemode: "drives zoned block devices, not files",
  filetype: "describes a device or a pipe, not a file in the run's directory",
  lockfile: "locks files shared with other processes",
};

/** Why an engine outside ALLOWED_IOENGINES is refused. */
export function ioengineRefusal(value: string): string {
  const v = value.toLowerCase();
  if (v.startsWith("external")) return `${clip(value)} loads a shared library from the host`;
  if (["net", "netsplice", "rdma", "http", "nbd", "nfs", "rbd", "rados", "libhdfs", "dfs", "libiscsi", "xnvme", "libblkio"].includes(v)) return `${v} talks over the network or to a device, not to a file in the run's directory`;
  if (v === "exec") return "exec runs a program on the host";
  if (v === "cpuio") return "cpuio burns CPU instead of measuring I/O";
  if (["sg", "io_uring_cmd", "mtd", "e4defrag", "splice", "filecreate", "filestat", "filedelete", "dircreate", "dirstat", "dirdelete", "falloc", "ftruncate", "null", "libcufile", "libhipfile", "windowsaio", "solarisaio", "guasi"].includes(v)) return `${v} is not one of the file engines Probebook runs (${ALLOWED_IOENGINES.join(", ")})`;
  return `${clip(value)} is not in the allow-list (${ALLOWED_IOENGINES.join(", ")})`;
}

function clip(s: string): string {
  return s.length > 40 ? `${s.slice(0, 37)}…` : s;
}
