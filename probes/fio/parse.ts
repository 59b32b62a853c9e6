import { splitCollectedFiles, type CollectedFile } from "../core/collected-files";
import { failure, guardParse, success } from "../core/probe";
import { clip } from "../core/text";
import type { ParseOutcome } from "../core/types";
import { logSeries } from "./parse-logs";
import { readJobs } from "./parse-json";
import { parseFioText } from "./parse-text";
import { stepMarker } from "../core/steps";
import { parseSniaOutput } from "./snia/parse";

type Json = unknown;
const isObject = (v: Json): v is Record<string, Json> => typeof v === "object" && v !== null && !Array.isArray(v);

/**
 * fio may print error lines before its JSON ("fio: first direct IO errored …") and sometimes
 * notes after it. The JSON starts at the first line that begins with "{" (else the first "{").
 */
function extractJson(output: string): { json: Json; before: string } | null {
  const starts = new Set<number>();
  const lineStart = /^\{/m.exec(output);
  if (lineStart) starts.add(lineStart.index);
  const first = output.indexOf("{");
  if (first >= 0) starts.add(first);
  for (const start of starts) {
    const end = output.lastIndexOf("}");
    for (const candidate of [output.slice(start), output.slice(start, end + 1)]) {
      try {
        return { json: JSON.parse(candidate) as Json, before: output.slice(0, start) };
      } catch {
        // try the next candidate
      }
    }
  }
  return null;
}

/** fio's normal report ("--output-format=normal", what fio prints by default). */
function parseText(output: string): ParseOutcome | null {
  const r = parseFioText(output);
  if (r.jobs === 0) return null;
  if (r.measurements.length === 0) {
    if (r.failed.length > 0) return failure(r.failed.join("; "));
    return failure("fio's report has job headers but no read/write lines: was the output cut short?");
  }
  // 2.x spells directions "read : io=…, bw=…, iops=…"; 3.x "read: IOPS=…, BW=…".
  const major = r.version ? /^(\d+)\./.exec(r.version)?.[1] : /: IOPS=/.test(output) ? "3" : "2";
  const warnings = [
    ...r.failed,
    ...r.warnings,
    "read from fio's text report: bandwidth and IOPS are rounded to the 3–4 digits fio prints (--output-format=json is exact)",
  ];
  return success("fio", r.version, r.measurements, warnings, `fio text ${major}.x`);
}

/**
 * The per-second series of fio's logs when the agent appended them (see parse-logs.ts), named
 * after the run's job when all its jobs share one name (numjobs clones), else "all jobs".
 */
function withSeries(outcome: ParseOutcome, files: readonly CollectedFile[]): ParseOutcome {
  if (!outcome.ok || files.length === 0) return outcome;
  const { result } = outcome;
  const jobs = new Set(result.measurements.filter((m) => m.metric === "bw").map((m) => String(m.dims.job)));
  const series = logSeries(files, jobs.size === 1 ? [...jobs][0]! : "all jobs");
  const cut = files.filter((f) => f.truncated).map((f) => f.name);
  const warnings = cut.length > 0 ? [...result.warnings, `fio's logs were cut short (${cut.join(", ")}): the series over time end early`] : result.warnings;
  return { ok: true, result: { ...result, measurements: [...result.measurements, ...series], warnings } };
}

export const parseFio = guardParse("fio", (log: string): ParseOutcome => {
  const { output, files } = splitCollectedFiles(log);
  // A stepped run (the SNIA-style preset): one fio report per step.
  if (output.includes(stepMarker)) return parseSniaOutput(output, parseReport);
  return withSeries(parseReport(output), files);
});

function parseReport(output: string): ParseOutcome {
  const extracted = extractJson(output);
  const jobs = extracted && isObject(extracted.json) && Array.isArray(extracted.json.jobs) ? extracted.json.jobs : null;
  if (!extracted || !isObject(extracted.json) || !jobs) {
    const text = parseText(output);
    if (text) return text;
    if (extracted && isObject(extracted.json)) return failure('not fio JSON output: no "jobs" array');
    return failure("not fio JSON output, nor a fio text report with job results (run fio with --output-format=json)");
  }
  const { json, before } = extracted;
  const versionText = typeof json["fio version"] === "string" ? json["fio version"] : null;
  const toolVersion = versionText ? versionText.replace(/^fio-/, "") : null;
  const notes = before.split(/\r?\n|\r/).map((l) => l.trim()).filter((l) => l.startsWith("fio:"));

  const r = readJobs(jobs);
  const { measurements, warnings, failed } = r;
  const said = notes.length > 0 ? `: ${clip(notes.map((n) => n.replace(/^fio:\s*/, "")).join(" | "), 500)}` : "";
  if (!r.transferred) {
    if (failed.length > 0) return failure(`${failed.join("; ")}${said}`);
    return failure(`fio JSON has no job that transferred data${said}`);
  }
  warnings.push(...failed);
  if (notes.length > 0) warnings.push(`fio reported${said}`);
  const major = toolVersion ? /^(\d+)\./.exec(toolVersion)?.[1] : undefined;
  return success("fio", toolVersion, measurements, warnings, `fio ${r.jsonPlus ? "json+" : "JSON"}${major ? ` ${major}.x` : ""}`);
}
