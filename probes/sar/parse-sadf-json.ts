import { MAX_DIM_CHARS, MAX_METRIC_CHARS } from "../core/schemas";
import type { Measurement } from "../core/types";
import { unitFor } from "./columns";
import { SADF_SECTIONS, SWAP_COLUMNS, sadfFieldColumn, type SadfSection } from "./sadf-json-map";
import { readTime } from "./time";

export interface SadfJsonResult {
  measurements: Measurement[];
  warnings: string[];
  toolVersion: string | null;
}

type Json = unknown;
const isObject = (v: Json): v is Record<string, Json> => typeof v === "object" && v !== null && !Array.isArray(v);
const SWAP = new Set(Object.keys(SWAP_COLUMNS));
// Groups that only hold other sections ("network": {"net-dev": […], "net-sock": {…}}).
const GROUPS = new Set(["network", "power-management", "psi"]);

/** sar's text prints CPU "all" and numbered rows; sadf -j writes the same names ("all", "0"). */
function rowKeyValue(v: Json): string | null {
  if (typeof v === "string") return v.slice(0, MAX_DIM_CHARS);
  if (typeof v === "number" && Number.isFinite(v)) return String(v);
  return null;
}

/**
 * sadf -j: {"sysstat": {"hosts": [{"statistics": [{"timestamp": {...}, "paging": {...},
 * "network": {"net-dev": [...]}, …}]}]}}. Every section becomes the metrics and dims sar's text
 * gives the same table; sadf writes no averages. Unknown sections and fields are reported in a
 * warning instead of being stored under names no other form of the same data would use.
 */
export function parseSadfJson(json: Json): SadfJsonResult {
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
  const unknownSections = new Set<string>();
  const unknownFields = new Set<string>();

  const emit = (metric: string, value: Json, dims: Record<string, string>) => {
    if (typeof value !== "number" || !Number.isFinite(value)) return;
    if (metric.length === 0 || metric.length > MAX_METRIC_CHARS) return;
    measurements.push({ metric, value, unit: unitFor(metric), dims });
  };

  // One row object of a section; nested objects ("io": {"io-reads": {...}}) are parts of the row.
  const readRow = (path: string, def: SadfSection, row: Record<string, Json>, base: Record<string, string>) => {
    const dims = { ...base };
    if (def.rowKey) {
      const key = rowKeyValue(row[def.rowKey.field]);
      if (key === null) return;
      dims[def.rowKey.dim] = key;
    }
    for (const [field, dim] of Object.entries(def.textDims ?? {})) {
      const text = rowKeyValue(row[field]);
      if (text !== null) dims[dim] = text;
    }
    const values = (obj: Record<string, Json>, depth: number) => {
      for (const [field, v] of Object.entries(obj)) {
        if (isObject(v) && depth < 2) {
          values(v, depth + 1);
          continue;
        }
        if (typeof v !== "number") continue;
        const newer = path === "disk" ? SUPERSEDED[field] : undefined;
        if (newer && typeof obj[newer] === "number") continue;
        if (path === "interrupts") {
          readInterrupt(field, v, dims);
          continue;
        }
        const column = sadfFieldColumn(def, field);
        if (column === null) {
          if (def.rowKey?.field !== field) unknownFields.add(`${path}.${field}`);
          continue;
        }
        const section = def.section === "memory" && SWAP.has(field) ? "swap" : def.section;
        emit(column, v, { ...dims, section });
      }
    };
    values(row, 0);
  };

  // Interrupts: {"intr": "sum", "value": 3.2} up to sysstat 12.2, then one field per CPU
  // ({"intr": "LOC", "all": 3.2, "CPU0": 1.1}) as sar -I ALL prints them since 12.4.
  const readInterrupt = (field: string, v: number, dims: Record<string, string>) => {
    if (field === "value") emit("intr/s", v, { ...dims, section: "interrupts" });
    else if (field === "all") emit("intr/s", v, { ...dims, section: "interrupts", cpu: "all" });
    else if (/^CPU\d+$/i.test(field)) emit("intr/s", v, { ...dims, section: "interrupts", cpu: field.slice(3) });
    else unknownFields.add(`interrupts.${field}`);
  };

  const readSection = (path: string, node: Json, base: Record<string, string>) => {
    const def = path === "interrupts" ? INTERRUPTS : SADF_SECTIONS[path];
    if (!def) {
      if (GROUPS.has(path) && isObject(node)) {
        for (const [name, child] of Object.entries(node)) readSection(`${path}.${name}`, child, base);
      } else {
        unknownSections.add(path);
      }
      return;
    }
    const rows = Array.isArray(node) ? node : [node];
    for (const row of rows) if (isObject(row)) readRow(path, def, row, base);
  };

  // Statistics that span midnight get a "day" dim (1, 2, …), as the text parser gives them.
  const days: string[] = [];
  const dayRows: { at: number; day: number }[] = [];
  for (const entry of stats) {
    if (!isObject(entry)) continue;
    const ts = isObject(entry.timestamp) ? entry.timestamp : {};
    const time = typeof ts.time === "string" ? readTime(ts.time)?.time : undefined;
    if (!time) continue;
    const date = typeof ts.date === "string" ? ts.date : "";
    if (!days.includes(date)) days.push(date);
    dayRows.push({ at: measurements.length, day: days.indexOf(date) + 1 });
    for (const [name, node] of Object.entries(entry)) {
      if (name === "timestamp" || name.length > 64) continue;
      readSection(name, node, { time });
    }
  }
  if (days.length > 1) {
    dayRows.forEach((row, i) => {
      const end = dayRows[i + 1]?.at ?? measurements.length;
      for (const m of measurements.slice(row.at, end)) m.dims.day = row.day;
    });
  }
  if (unknownSections.size > 0) {
    warnings.push(`sadf sections not read (unknown to this parser): ${[...unknownSections].sort().join(", ")}`);
  }
  if (unknownFields.size > 0) {
    warnings.push(`sadf fields not read (unknown to this parser): ${[...unknownFields].sort().slice(0, 20).join(", ")}`);
  }
  return { measurements, warnings, toolVersion };
}

// sadf -j of sysstat 12.x writes each disk value twice, under the 11.x name (sectors, avgrq-sz)
// and the 12.x one; sar's text prints only the new one, so the old twin is dropped when both exist.
const SUPERSEDED: Record<string, string> = {
  rd_sec: "rkB", wr_sec: "wkB", dc_sec: "dkB", "avgrq-sz": "areq-sz", "avgqu-sz": "aqu-sz",
};

const INTERRUPTS: SadfSection = { section: "interrupts", rowKey: { field: "intr", dim: "intr" } };
