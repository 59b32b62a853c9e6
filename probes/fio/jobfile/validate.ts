// One verdict on a fio job file, the same for the server that queues the run (through the fio
// params schema, probes/fio/params.ts) and for the agent about to run it (which validates the
// params again, probes/agent/job-guard.ts): every option on the allow-list (options.ts) with a
// value it takes, file names plain, and the whole file within the caps a preset has — its bytes
// are what admission checks against the target's free space (requiredFreeBytes), its runtime
// within the 24 h a preset's runtimeSec may ask for. Never throws.
import { ALLOWED, ALLOWED_IOENGINES, PLAIN_NAME, REFUSED, ioengineRefusal } from "./options";
import { parseJobFile, type JobFileEntry, type JobFileProblem } from "./parse";
import { maxSizeBytes, sizeBytes, timeSeconds } from "./units";

/** A job file is a few hundred bytes; 64 KiB is room for any real one and keeps params rows small. */
export const JOB_FILE_MAX_BYTES = 64 * 1024;
/** The caps of the preset form's fields (probes/fio/params.ts): sizeMiB ≤ 1 TiB, runtimeSec ≤ 24 h, numjobs ≤ 64. */
export const JOB_FILE_MAX_TOTAL_BYTES = 1024 ** 4;
export const JOB_FILE_MAX_SECONDS = 86400;
export const JOB_FILE_MAX_THREADS = 64;
/** How fast a job without a runtime is assumed to go at worst, for its timeout (as fioTimeoutSec). */
const WORST_BYTES_PER_SEC = 5 * 1024 * 1024;

export interface JobSummary {
  name: string;
  line: number;
  numjobs: number;
  /** Bytes each clone's files take. */
  bytesPerJob: number;
  /** Seconds the job may take at most: runtime + ramp_time when it has a runtime, else null. */
  seconds: number | null;
  /** startdelay (its upper end), also part of `seconds`. */
  startSec: number;
  /** Bytes each clone moves when it has no runtime: laying out its files, then io_size (or size) each loop. */
  bytesMoved: number;
  rw: string;
  direct: boolean;
}

export interface JobFileSummary {
  jobs: JobSummary[];
  /** Bytes the files of every job take together (what the target needs free). */
  writesBytes: number;
  threads: number;
  timeoutSec: number;
}

export type JobFileVerdict = { ok: true; summary: JobFileSummary } | { ok: false; problems: JobFileProblem[] };

/** "line 7: exec_prerun runs a shell command …" — the words both sides show. */
export function describeProblem(p: JobFileProblem): string {
  const where = p.line > 0 ? `line ${p.line}: ` : "";
  return `${where}${p.option ? `${p.option} ` : ""}${p.reason}`;
}

export function validateJobFile(text: unknown): JobFileVerdict {
  if (typeof text !== "string") return fail([{ line: 0, reason: "a job file is text" }]);
  const bytes = new TextEncoder().encode(text).length;
  if (bytes > JOB_FILE_MAX_BYTES) return fail([{ line: 0, reason: `is ${bytes} bytes; a job file may be at most ${JOB_FILE_MAX_BYTES} bytes (64 KiB)` }]);
  const parsed = parseJobFile(text);
  const problems: JobFileProblem[] = [...parsed.problems];
  for (const s of parsed.sections) {
    if (s.name !== "global" && (!PLAIN_NAME.test(s.name) || s.name === "..")) {
      problems.push({ line: s.line, reason: `[${s.name.slice(0, 40)}] is not a plain job name (letters, digits, . _ -): fio makes file names from it` });
    }
    for (const e of s.entries) {
      const reason = entryRefusal(e);
      if (reason) problems.push({ line: e.line, option: e.key, reason });
    }
  }
  const jobs = parsed.sections.filter((s) => s.name !== "global");
  if (parsed.sections.length > 0 && jobs.length === 0) problems.push({ line: parsed.sections[0]!.line, reason: "has no job: add a [job] section after [global]" });
  if (parsed.sections.length === 0 && problems.length === 0) problems.push({ line: 0, reason: "is empty: a job file needs at least one [job] section" });
  if (problems.length > 0) return fail(problems);

  // Each job with the [global] sections above it (HOWTO: "A job is only affected by a global section residing above it").
  const summaries: JobSummary[] = [];
  let globals = new Map<string, JobFileEntry>();
  for (const s of parsed.sections) {
    const own = new Map(s.entries.map((e) => [canonical(e.key), e] as const));
    if (s.name === "global") {
      globals = new Map([...globals, ...own]);
      continue;
    }
    const opts = new Map([...globals, ...own]);
    const job = summarise(s.name, s.line, opts, problems);
    if (job) summaries.push(job);
  }
  const threads = summaries.reduce((a, j) => a + j.numjobs, 0);
  const writesBytes = summaries.reduce((a, j) => a + j.bytesPerJob * j.numjobs, 0);
  // A job's runtime (with its ramp and start delay), or the start delay of one without a runtime.
  const timed = summaries.reduce((a, j) => a + (j.seconds ?? j.startSec), 0);
  const lastLine = jobs[jobs.length - 1]!.line;
  if (threads > JOB_FILE_MAX_THREADS) problems.push({ line: lastLine, option: "numjobs", reason: `adds up to ${threads} threads over the file; at most ${JOB_FILE_MAX_THREADS}` });
  if (writesBytes > JOB_FILE_MAX_TOTAL_BYTES) problems.push({ line: lastLine, option: "size", reason: `adds up to ${gib(writesBytes)} GiB over the file; at most 1024 GiB (and what the target has free)` });
  if (timed > JOB_FILE_MAX_SECONDS) problems.push({ line: lastLine, option: "runtime", reason: `adds up to ${Math.round(timed)} s of runtime, ramp_time and startdelay over the file (counting each job after the other); at most ${JOB_FILE_MAX_SECONDS} s (24 h)` });
  if (problems.length > 0) return fail(problems);
  // Timed jobs end at their runtime; the others at 5 MiB/s worst case over what they write, plus laying it out.
  const untimed = summaries.filter((j) => j.seconds === null).reduce((a, j) => a + (j.bytesMoved * j.numjobs) / WORST_BYTES_PER_SEC, 0);
  const timeoutSec = Math.ceil(120 + timed + untimed);
  return { ok: true, summary: { jobs: summaries, writesBytes, threads, timeoutSec } };
}

function entryRefusal(e: JobFileEntry): string | null {
  if (Object.hasOwn(REFUSED, e.key)) return REFUSED[e.key]!;
  if (e.value !== null && e.value.includes("$") && e.key !== "filename_format") {
    return "uses $-expansion (an environment variable, $mb_memory, $ncpus or arithmetic): the file must say its values itself";
  }
  if (e.key === "ioengine" && e.value !== null && !(ALLOWED_IOENGINES as readonly string[]).includes(e.value.toLowerCase())) return ioengineRefusal(e.value);
  if (e.key === "filename" && e.value !== null && e.value.split(":").some((n) => n === "-")) return '"-" means standard input or output, not a file in the run\'s directory';
  const check = Object.hasOwn(ALLOWED, e.key) ? ALLOWED[e.key]! : null;
  if (!check) return "is not in the allow-list";
  return check(e.value);
}

/** fio's aliases, so that a job's own option overrides the [global] one whichever name either uses. */
const ALIASES: Record<string, string> = {
  readwrite: "rw",
  blocksize: "bs",
  blocksize_range: "bsrange",
  io_limit: "io_size",
  timeout: "runtime",
  ss: "steadystate",
  ss_dur: "steadystate_duration",
  ss_ramp: "steadystate_ramp_time",
  wait_for_previous: "stonewall",
};
const canonical = (k: string) => ALIASES[k] ?? k;

function summarise(name: string, line: number, opts: Map<string, JobFileEntry>, problems: JobFileProblem[]): JobSummary | null {
  const val = (k: string) => opts.get(k)?.value ?? null;
  const on = (k: string) => opts.has(k) && !/^(0|false)$/i.test(opts.get(k)!.value ?? "1");
  const numjobs = Number(val("numjobs") ?? "1");
  const nrfiles = Number(val("nrfiles") ?? "1");
  const size = val("size") === null ? null : sizeBytes(val("size")!);
  const filesize = val("filesize") === null ? null : maxSizeBytes(val("filesize")!);
  if (size === null && filesize === null) {
    problems.push({ line, reason: `[${name}] has no size= (or filesize=): a job file must say how much each job writes, so the run can check the target's free space` });
    return null;
  }
  // HOWTO: size is the total for the job's files; filesize each file's (size/nrfiles when absent).
  // An offset (and each clone's offset_increment) is counted on top: the files may reach that far.
  const offset = (val("offset") === null ? 0 : (sizeBytes(val("offset")!) ?? 0)) + (val("offset_increment") === null ? 0 : (sizeBytes(val("offset_increment")!) ?? 0)) * (numjobs - 1);
  const bytesPerJob = Math.max(size ?? 0, (filesize ?? 0) * nrfiles) + offset;
  const runtime = val("runtime") === null ? null : timeSeconds(val("runtime")!);
  const ramp = val("ramp_time") === null ? 0 : (timeSeconds(val("ramp_time")!) ?? 0);
  const start = val("startdelay") === null ? 0 : (timeSeconds(val("startdelay")!.split("-").pop()!) ?? 0);
  if (on("time_based") && runtime === null) {
    problems.push({ line: opts.get("time_based")!.line, option: "time_based", reason: `in [${name}] needs a runtime: without one fio would run until stopped` });
    return null;
  }
  const ioSize = val("io_size") === null ? null : sizeBytes(val("io_size")!);
  const loops = Number(val("loops") ?? "1");
  return {
    name,
    line,
    numjobs,
    bytesPerJob,
    bytesMoved: bytesPerJob + (ioSize ?? bytesPerJob) * loops,
    seconds: runtime === null ? null : runtime + ramp + start,
    startSec: start,
    rw: (val("rw") ?? "read").toLowerCase(),
    direct: on("direct") || (opts.has("buffered") && !on("buffered")),
  };
}

const fail = (problems: JobFileProblem[]): JobFileVerdict => ({ ok: false, problems });
const gib = (b: number) => (b / 1024 ** 3).toFixed(1);
