import { MAX_DIM_CHARS } from "../core/schemas";
import { splitLines } from "../core/text";
import type { Measurement } from "../core/types";
import { exactBandwidth, readFigure } from "./exact-bw";
import { jobDims, percentileMetric, push } from "./metrics";

// fio's normal (human-readable) report, per job:
//   seqwrite: (groupid=0, jobs=1): err= 0: pid=20386: Mon Nov 23 21:30:58 2026     (3.x and 2.x)
//   Client1 (g=0): err= 0:                                                         (2.0)
//     read: IOPS=18.2k, BW=71.0MiB/s (74.4MB/s)(142MiB/2004msec)                   (3.x)
//     read : io=343.0MB, bw=11707KB/s, iops=2926, runt= 30001msec                  (2.x)
//       slat (usec): min=3, max=3814, avg= 5.48, stdev=20.67      (nsec, usec, msec)
//       clat / lat (…): …;  clat percentiles (usec):  |  1.00th=[   88], …
//   fsync/fdatasync/sync_file_range:  sync (usec): …  sync percentiles (usec): …   (3.x)
// Values are rounded as printed (3 significant digits for BW and IOPS); the JSON is exact.

export interface FioTextResult {
  measurements: Measurement[];
  warnings: string[];
  jobs: number;
  version: string | null;
  failed: string[];
}

const JOB_RE = /^(\S.*?): \(groupid=(\d+), jobs=(\d+)\): err=\s*(\d+)/;
const JOB_20_RE = /^(\S.*?) \(g=(\d+)\): err=\s*(\d+)/;
// 3.x: "BW=<kb_base units> (<the other base>)(<io>/<runtime>msec)"; the last two are optional here.
const DIR3_RE = /^\s+(read|write|trim|mixed)\s*: IOPS=([\d.]+[kKMG]?), BW=([\d.]+(?:[KkMGTP]i?B|B))\/s(?: \(([\d.]+(?:[KkMGTP]i?B|B))\/s\))?(?:\(([\d.]+(?:[KkMGTP]i?B|B))\/(\d+)msec\))?/;
const DIR2_RE = /^\s+(read|write|trim|mixed)\s*: io=\s*[\d.]+[KMGTP]?i?B, bw=\s*([\d.]+)([KMGTP]?i?B)\/s, iops=\s*([\d.]+[kKMG]?)\s*,/;
const LAT_RE = /^\s+(slat|clat|lat|sync)\s+\((nsec|usec|msec|sec)\)\s*:.*?avg=\s*([\d.]+)/;
const PCT_HEAD_RE = /^\s+(clat|lat|slat|sync) percentiles \((nsec|usec|msec|sec)\):/;
const PCT_RE = /([\d.]+)th=\[\s*(\d+)\]/g;
const TO_NS: Record<string, number> = { nsec: 1, usec: 1e3, msec: 1e6, sec: 1e9 };
const COUNT_SUFFIX: Record<string, number> = { "": 1, k: 1e3, K: 1e3, M: 1e6, G: 1e9 };

function count(text: string): number | null {
  const m = /^([\d.]+)([kKMG]?)$/.exec(text);
  return m ? Number(m[1]) * (COUNT_SUFFIX[m[2] ?? ""] ?? 1) : null;
}

/**
 * Bytes per unit: "KiB" is 1024; "KB" is 1000 in fio 3.x (its SI figure) but 1024 in fio 2.x,
 * whose only figure uses kb_base=1024 with "KB" spelling.
 */
function bytesPer(unit: string, v2: boolean): number {
  const prefix = unit.replace(/i?B$/, "");
  const power = ["", "K", "M", "G", "T", "P"].indexOf(prefix.toUpperCase());
  if (power < 0) return 1;
  const base = unit.includes("i") || v2 ? 1024 : 1000;
  return base ** power;
}

export function parseFioText(output: string): FioTextResult {
  const warnings: string[] = [];
  const failed: string[] = [];
  const version = /^fio-(\d+(?:\.\d+)+)/m.exec(output)?.[1] ?? null;
  // First pass: job headers, so that jobs sharing a name get the same numbering as in JSON.
  const lines = splitLines(output);
  const headers: { line: number; name: string }[] = [];
  lines.forEach((line, i) => {
    const m = JOB_RE.exec(line) ?? JOB_20_RE.exec(line);
    if (m) {
      headers.push({ line: i, name: (m[1] ?? "job").slice(0, MAX_DIM_CHARS) });
      const err = Number(JOB_RE.test(line) ? m[4] : m[3]);
      if (err !== 0) failed.push(`fio job "${m[1]}" failed with error ${err}`);
    }
  });
  const dimsOf = jobDims(headers.map((h) => h.name));
  const measurements: Measurement[] = [];
  headers.forEach((h, index) => {
    const end = headers[index + 1]?.line ?? lines.length;
    const base = dimsOf[index] ?? { job: h.name };
    let dims: Record<string, string> | null = null;
    let percentileKind: { kind: "clat" | "lat"; toNs: number } | null = null;
    for (const line of lines.slice(h.line + 1, end)) {
      if (/^Run status group/.test(line)) break;
      const d3 = DIR3_RE.exec(line);
      const d2 = d3 ? null : DIR2_RE.exec(line);
      if (d3 || d2) {
        dims = { ...base, direction: (d3 ?? d2)?.[1] ?? "read" };
        percentileKind = null;
        if (d3) {
          const primary = readFigure(d3[3] ?? "");
          if (primary) {
            const alt = d3[4] ? readFigure(d3[4]) : null;
            const io = d3[5] ? readFigure(d3[5]) : null;
            const bw = exactBandwidth(primary, alt, io, d3[6] ? Number(d3[6]) : null);
            if (bw.corrected) {
              warnings.push(`${h.name} ${dims.direction}: fio printed BW=${d3[3]}/s, one unit short (the num2str rounding bug of fio < 3.26); the figure its other numbers agree on was taken`);
            }
            push(measurements, "bw", bw.value, "B/s", dims);
          }
          push(measurements, "iops", count(d3[2] ?? ""), "1/s", dims);
        } else if (d2) {
          push(measurements, "bw", Number(d2[2]) * bytesPer(d2[3] ?? "B", true), "B/s", dims);
          push(measurements, "iops", count(d2[4] ?? ""), "1/s", dims);
        }
        continue;
      }
      if (/^\s+fsync\/fdatasync\/sync_file_range:/.test(line)) {
        dims = { ...base, direction: "sync" };
        percentileKind = null;
        continue;
      }
      if (!dims) continue;
      const lat = LAT_RE.exec(line);
      if (lat) {
        percentileKind = null;
        const kind = lat[1] === "sync" ? "lat" : lat[1];
        push(measurements, `${kind}_mean`, Number(lat[3]) * (TO_NS[lat[2] ?? "usec"] ?? 1e3), "ns", dims);
        continue;
      }
      const head = PCT_HEAD_RE.exec(line);
      if (head) {
        const kind = head[1] === "clat" ? "clat" : head[1] === "slat" ? null : "lat";
        percentileKind = kind ? { kind, toNs: TO_NS[head[2] ?? "usec"] ?? 1e3 } : null;
        continue;
      }
      if (percentileKind && /^\s+\|/.test(line)) {
        for (const m of line.matchAll(PCT_RE)) {
          const metric = percentileMetric(percentileKind.kind, m[1] ?? "");
          if (metric) push(measurements, metric, Number(m[2]) * percentileKind.toNs, "ns", dims);
        }
        continue;
      }
      percentileKind = null;
    }
  });
  return { measurements, warnings, jobs: headers.length, version, failed };
}
