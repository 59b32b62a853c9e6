import { parseLocaleNumber } from "../core/number";
import { MAX_DIM_CHARS, MAX_METRIC_CHARS } from "../core/schemas";
import { splitLines } from "../core/text";
import type { Measurement } from "../core/types";
import { KEY_COLUMNS, sadfColumn, sectionFor, unitFor } from "./columns";
import { readTime } from "./time";

export interface SadfResult {
  measurements: Measurement[];
  warnings: string[];
  toolVersion: string | null;
}

type Json = unknown;
const isObject = (v: Json): v is Record<string, Json> => typeof v === "object" && v !== null && !Array.isArray(v);

// sadf -j section names → our section names; other sections keep sadf's name.
const SECTIONS: Record<string, string> = { "cpu-load": "cpu", "cpu-load-all": "cpu", paging: "paging", memory: "memory", disk: "disk" };
// The field that names a row in arrays ("disk-device": "vda", "cpu": "all", "iface": "lo" …).
const ROW_KEYS: Record<string, string> = { "disk-device": "device", cpu: "cpu", iface: "iface", intr: "intr", line: "tty", filesystem: "filesystem", number: "cpu" };

/**
 * sadf -j: {"sysstat": {"hosts": [{"statistics": [{"timestamp": {...}, "paging": {...},
 * "disk": [...], …}]}]}}. It has no average entry. Nested groups of unknown sections (e.g.
 * "io": {"io-reads": {...}}) become dotted metric names.
 */
export function parseSadfJson(json: Json): SadfResult {
  const measurements: Measurement[] = [];
  const warnings: string[] = [];
  const sysstat = isObject(json) ? json.sysstat : undefined;
  if (!isObject(sysstat)) return { measurements, warnings: ["no \"sysstat\" object in the JSON"], toolVersion: null };
  const version = sysstat["sysdata-version"];
  const toolVersion = typeof version === "number" || typeof version === "string" ? String(version) : null;
  const hosts = Array.isArray(sysstat.hosts) ? sysstat.hosts : [];
  if (hosts.length > 1) warnings.push(`sadf JSON holds ${hosts.length} hosts; only the first is read`);
  const host = hosts[0];
  const stats = isObject(host) && Array.isArray(host.statistics) ? host.statistics : [];

  const emit = (metric: string, value: Json, dims: Record<string, string>) => {
    if (typeof value !== "number" || !Number.isFinite(value)) return;
    if (metric.length === 0 || metric.length > MAX_METRIC_CHARS) return;
    measurements.push({ metric, value, unit: unitFor(metric), dims });
  };
  const walk = (section: string, node: Json, dims: Record<string, string>, prefix: string, depth: number) => {
    if (depth > 4) return;
    if (Array.isArray(node)) {
      for (const item of node) walk(section, item, dims, prefix, depth + 1);
      return;
    }
    if (!isObject(node)) return;
    const rowDims = { ...dims };
    for (const [k, v] of Object.entries(node)) {
      const dim = ROW_KEYS[k];
      if (dim && (typeof v === "string" || typeof v === "number")) rowDims[dim] = String(v).slice(0, MAX_DIM_CHARS);
    }
    for (const [k, v] of Object.entries(node)) {
      if (ROW_KEYS[k] && (typeof v === "string" || typeof v === "number")) continue;
      if (typeof v === "number") emit(prefix + sadfColumn(section, k), v, rowDims);
      else walk(section, v, rowDims, `${prefix}${k}.`, depth + 1);
    }
  };

  for (const entry of stats) {
    if (!isObject(entry)) continue;
    const ts = isObject(entry.timestamp) ? entry.timestamp : {};
    const time = typeof ts.time === "string" ? readTime(ts.time)?.time : undefined;
    if (!time) continue;
    for (const [name, node] of Object.entries(entry)) {
      if (name === "timestamp" || name.length > 64) continue;
      const section = SECTIONS[name] ?? name;
      walk(section, node, { section, time }, "", 0);
    }
  }
  return { measurements, warnings, toolVersion };
}

/** sadf -d: "# hostname;interval;timestamp;<sar columns…>" per activity, then ";"-separated rows. */
export function parseSadfCsv(output: string): SadfResult {
  const measurements: Measurement[] = [];
  let columns: string[] | null = null;
  let skipped = 0;
  for (const line of splitLines(output)) {
    if (line.startsWith("#")) {
      const fields = line.replace(/^#\s*/, "").split(";");
      columns = fields[0] === "hostname" ? fields.slice(3) : null;
      continue;
    }
    if (!columns || line.trim() === "") continue;
    const fields = line.split(";");
    const stamp = fields[2] ?? "";
    const time = /^\d+$/.test(stamp)
      ? new Date(Number(stamp) * 1000).toISOString().slice(11, 19)
      : readTime(stamp.replace(/^\d{4}-\d{2}-\d{2}\s+/, ""))?.time;
    if (fields.length !== columns.length + 3 || !time) {
      skipped++;
      continue;
    }
    const section = sectionFor(columns);
    const dims: Record<string, string> = { section, time };
    const values = fields.slice(3);
    columns.forEach((c, i) => {
      const key = KEY_COLUMNS[c];
      // sadf -d writes CPU "all" as -1
      if (key) dims[key] = c === "CPU" && values[i] === "-1" ? "all" : (values[i] ?? "").slice(0, MAX_DIM_CHARS);
    });
    columns.forEach((c, i) => {
      if (KEY_COLUMNS[c] || c.length === 0 || c.length > 64) return;
      const value = parseLocaleNumber(values[i] ?? "");
      if (value !== null) measurements.push({ metric: c, value, unit: unitFor(c), dims: { ...dims } });
    });
  }
  const warnings = skipped > 0 ? [`${skipped} sadf row(s) did not match their header and were skipped`] : [];
  return { measurements, warnings, toolVersion: null };
}
