import { failure, guardParse, success } from "../core/probe";
import { MAX_DIM_CHARS } from "../core/schemas";
import { clip } from "../core/text";
import type { Measurement, ParseOutcome } from "../core/types";

type Json = unknown;
const isObject = (v: Json): v is Record<string, Json> => typeof v === "object" && v !== null && !Array.isArray(v);
const num = (v: Json): number | null => (typeof v === "number" && Number.isFinite(v) ? v : null);

const DIRECTIONS = ["read", "write", "trim"] as const;
// These engines move no data: they count one fake block per file opened, stat'ed or unlinked
// (the fsmeta probe reads them as files per second), so a "bandwidth" of theirs would be false.
const NO_DATA_ENGINES = new Set(["filecreate", "filestat", "filedelete", "exec"]);
const ERRNO: Record<number, string> = {
  2: "No such file or directory", 5: "Input/output error", 12: "Cannot allocate memory", 13: "Permission denied",
  22: "Invalid argument", 28: "No space left on device", 30: "Read-only file system", 95: "Operation not supported",
};

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

/** fio 3.x reports ns and bytes (lat_ns, bw_bytes); fio 2.x µs and KiB/s (lat, bw). */
function directionMetrics(d: Record<string, Json>, dims: Record<string, string>): Measurement[] {
  const out: Measurement[] = [];
  const v3 = isObject(d.lat_ns) || isObject(d.clat_ns) || d.bw_bytes !== undefined;
  const bw = num(d.bw_bytes) ?? (num(d.bw) !== null ? (num(d.bw) as number) * 1024 : null);
  if (bw !== null) out.push({ metric: "bw", value: bw, unit: "B/s", dims });
  const iops = num(d.iops);
  if (iops !== null) out.push({ metric: "iops", value: iops, unit: "1/s", dims });
  const toNs = v3 ? 1 : 1000;
  const lat = v3 ? d.lat_ns : d.lat;
  const latMean = isObject(lat) ? num(lat.mean) : null;
  if (latMean !== null) out.push({ metric: "lat_mean", value: latMean * toNs, unit: "ns", dims });
  const clat = v3 ? d.clat_ns : d.clat;
  const pct = isObject(clat) && isObject(clat.percentile) ? clat.percentile : null;
  const p99 = pct ? num(pct["99.000000"] ?? pct["99.00"] ?? pct["99"]) : null;
  if (p99 !== null) out.push({ metric: "clat_p99", value: p99 * toNs, unit: "ns", dims });
  return out;
}

export const parseFio = guardParse("fio", (output: string): ParseOutcome => {
  const extracted = extractJson(output);
  if (!extracted || !isObject(extracted.json)) {
    return failure("not fio JSON output: no JSON object found (run fio with --output-format=json)");
  }
  const { json, before } = extracted;
  const jobs = Array.isArray(json.jobs) ? json.jobs : null;
  if (!jobs) return failure('not fio JSON output: no "jobs" array');
  const versionText = typeof json["fio version"] === "string" ? json["fio version"] : null;
  const toolVersion = versionText ? versionText.replace(/^fio-/, "") : null;
  const notes = before.split(/\r?\n|\r/).map((l) => l.trim()).filter((l) => l.startsWith("fio:"));

  const measurements: Measurement[] = [];
  const warnings: string[] = [];
  const failed: string[] = [];
  for (const job of jobs) {
    if (!isObject(job)) continue;
    const name = typeof job.jobname === "string" ? job.jobname.slice(0, MAX_DIM_CHARS) : "job";
    const options = isObject(job["job options"]) ? job["job options"] : {};
    if (typeof options.ioengine === "string" && NO_DATA_ENGINES.has(options.ioengine)) continue;
    const error = num(job.error) ?? 0;
    if (error !== 0) failed.push(`fio job "${name}" failed with error ${error}${ERRNO[error] ? ` (${ERRNO[error]})` : ""}`);
    for (const direction of DIRECTIONS) {
      const d = job[direction];
      if (!isObject(d) || (num(d.io_bytes) ?? 0) <= 0) continue;
      measurements.push(...directionMetrics(d, { job: name, direction }));
    }
    if (isObject(job.mixed) && (num(job.mixed.io_bytes) ?? 0) > 0) {
      warnings.push(`fio job "${name}" used unified_rw_reporting ("mixed"): not split into read and write, skipped`);
    }
  }
  const said = notes.length > 0 ? `: ${clip(notes.map((n) => n.replace(/^fio:\s*/, "")).join(" | "), 500)}` : "";
  if (measurements.length === 0) {
    if (failed.length > 0) return failure(`${failed.join("; ")}${said}`);
    return failure(`fio JSON has no job that transferred data${said}`);
  }
  warnings.push(...failed);
  if (notes.length > 0) warnings.push(`fio reported${said}`);
  return success("fio", toolVersion, measurements, warnings);
});
