import { failure, guardParse, success } from "../core/probe";
import { clip } from "../core/text";
import type { Measurement, ParseOutcome } from "../core/types";
import { PHASES, type Phase } from "./command";

type Json = unknown;
const isObject = (v: Json): v is Record<string, Json> => typeof v === "object" && v !== null && !Array.isArray(v);
const num = (v: Json): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);
const int = (v: Json): number | null => {
  const n = typeof v === "string" ? Number(v) : num(v);
  return n !== null && Number.isSafeInteger(n) && n > 0 ? n : null;
};

const ENGINE: Record<string, Phase> = { filecreate: "create", filestat: "stat", filedelete: "delete" };
const ERRNO: Record<number, string> = {
  2: "No such file or directory", 13: "Permission denied", 17: "File exists", 24: "Too many open files",
  28: "No space left on device (out of inodes or blocks)", 30: "Read-only file system", 122: "Disk quota exceeded",
};
/** Below this a step's rate is coarse: fio times each step in whole milliseconds. */
const COARSE_MS = 50;

/**
 * The command prints fio's text report after the JSON (normal,json) and ETA lines before it,
 * glued to the "{" by a carriage return in a terminal. The document is the root object from
 * `{ "fio version"` to the first "}" alone at the start of a line.
 */
export function extractFioJson(output: string): { json: Json; before: string } | null {
  const start = /\{\s*"fio version"/.exec(output);
  if (!start) return null;
  const endRe = /\n\}[ \t]*(?:\r?\n|$)/g;
  endRe.lastIndex = start.index;
  const end = endRe.exec(output);
  const text = output.slice(start.index, end ? end.index + 2 : undefined);
  try {
    return { json: JSON.parse(text) as Json, before: output.slice(0, start.index) };
  } catch {
    return null;
  }
}

function phaseOf(job: Record<string, Json>): Phase | null {
  const options = isObject(job["job options"]) ? job["job options"] : {};
  const engine = typeof options.ioengine === "string" ? ENGINE[options.ioengine] : undefined;
  if (engine) return engine;
  return (PHASES as readonly Json[]).includes(job.jobname) ? (job.jobname as Phase) : null;
}

/** fio's own "fio: …" complaints before the JSON (a missing directory, a bad option). */
function fioNotes(text: string): string[] {
  return text.split(/\r\n|\r|\n/).map((l) => l.trim()).filter((l) => l.startsWith("fio:")).map((l) => l.replace(/^fio:\s*/, ""));
}

export const parseFsmeta = guardParse("fsmeta", (output: string): ParseOutcome => {
  const extracted = extractFioJson(output);
  if (!extracted || !isObject(extracted.json)) {
    const notes = fioNotes(output);
    if (notes.length > 0) return failure(`fio stopped before measuring: ${clip(notes.join(" | "), 500)}`);
    return failure('not fio output of the metadata probe: no JSON report starting with "fio version" (run fio with --output-format=json or normal,json)');
  }
  const { json } = extracted;
  const jobs = Array.isArray(json.jobs) ? json.jobs : null;
  if (!jobs) return failure('not fio JSON output: no "jobs" array');
  const versionText = typeof json["fio version"] === "string" ? json["fio version"] : null;
  const toolVersion = versionText ? versionText.replace(/^fio-/, "").slice(0, 64) : null;

  const measurements: Measurement[] = [];
  const warnings: string[] = [];
  const failed: string[] = [];
  const seen = new Set<Phase>();
  for (const job of jobs) {
    if (!isObject(job)) continue;
    const phase = phaseOf(job);
    if (!phase) continue; // the mkdir / rmdir helper jobs of the tree layout
    const options = isObject(job["job options"]) ? job["job options"] : {};
    const dirs = int(options.numjobs) ?? 1;
    const planned = (int(options.nrfiles) ?? 0) * dirs;
    // The three engines account every file as one 4 KiB read; other directions stay empty.
    const read = isObject(job.read) ? job.read : {};
    const done = num(read.total_ios) ?? 0;
    const error = num(job.error) ?? 0;
    if (error !== 0) {
      const of = planned > 0 ? ` after ${done} of ${planned} files` : "";
      failed.push(`fio's ${phase} step failed with error ${error}${ERRNO[error] ? ` (${ERRNO[error]})` : ""}${of}`);
      continue;
    }
    const runtimeMs = num(read.runtime) ?? 0;
    const iops = num(read.iops);
    if (done <= 0 || iops === null || runtimeMs <= 0) continue;
    seen.add(phase);
    if (planned > 0 && done !== planned) warnings.push(`the ${phase} step handled ${done} files, not the ${planned} asked for`);
    const dims = { op: phase, layout: dirs > 1 ? "tree" : "flat", files: done, dirs };
    measurements.push({ metric: "rate", value: iops, unit: "files/s", dims });
    const clat = isObject(read.clat_ns) ? read.clat_ns : {};
    const mean = num(clat.mean);
    if (mean !== null) measurements.push({ metric: "lat_mean", value: mean, unit: "ns", dims });
    const pct = isObject(clat.percentile) ? clat.percentile : {};
    const p99 = num(pct["99.000000"]);
    if (p99 !== null) measurements.push({ metric: "lat_p99", value: p99, unit: "ns", dims });
    if (runtimeMs < COARSE_MS) {
      warnings.push(
        `the ${phase} step took ${runtimeMs} ms: fio times a step in whole milliseconds, so its rate is only good to about ±${Math.ceil(50 / runtimeMs)} %; use more files for a finer figure`,
      );
    }
  }
  const notes = fioNotes(extracted.before);
  const said = notes.length > 0 ? `: ${clip(notes[0] ?? "", 300)}` : "";
  // A step that stopped half way (out of inodes, a read-only remount) makes every later step
  // meaningless too (stat and delete then miss the files create never made): the run failed.
  if (failed.length > 0) {
    const hint = failed[0]?.includes("error 28") ? " (df -i shows the free inodes)" : "";
    return failure(`${failed[0]}${hint}${said}`);
  }
  if (measurements.length === 0) return failure(`fio's report has no create, stat or delete step that handled files${said}`);
  for (const phase of PHASES) if (!seen.has(phase)) warnings.push(`no result for the ${phase} step`);
  if (notes.length > 0) warnings.push(`fio reported: ${clip(notes.join(" | "), 500)}`);
  return success("fsmeta", toolVersion, measurements, warnings);
});
