import { csvLine, type CsvValue } from "../../compare/csv";
import { TELEMETRY_UNITS, type TelemetryPoint } from "./get-run-telemetry";

const unitOf = (group: keyof typeof TELEMETRY_UNITS, field: string): string => {
  const u = TELEMETRY_UNITS[group];
  return typeof u === "string" ? u : ((u as Record<string, string>)[field] ?? "");
};

/**
 * Telemetry as rows of the run's measurement CSV (run, metric, dims, value, unit): one row per
 * field and second, metric "telemetry.<group>.<field>", dims "t=<s>" (and the device's name), so
 * a spreadsheet pivots them like any other measurement.
 */
export function telemetryCsvRows(label: string, samples: readonly TelemetryPoint[]): string {
  const rows: CsvValue[][] = [];
  for (const s of samples) {
    const t = `t=${s.t}`;
    const add = (group: keyof typeof TELEMETRY_UNITS, values: object, dims = t) => {
      for (const [field, value] of Object.entries(values)) {
        if (typeof value === "number") rows.push([label, `telemetry.${group}.${field}`, dims, value, unitOf(group, field)]);
      }
    };
    add("cpu", s.cpu);
    if (s.device) add("device", s.device, `${t};device=${s.device.name}`);
    add("memory", s.memory);
    add("paging", s.paging);
    add("writeback", s.writeback);
    for (const [node, free] of Object.entries(s.numa ?? {})) rows.push([label, "telemetry.numa.free", `${t};node=${node}`, free, "KiB"]);
  }
  return rows.map((r) => `${csvLine(r)}\r\n`).join("");
}

/**
 * The checks the run failed (probes/checks) as rows of the same CSV: metric "check.<code>", the
 * evidence as dims, value 1; a run that passed has none, so a spreadsheet can filter flagged runs.
 */
export function checksCsvRows(label: string, flags: readonly { code: string; evidence: string }[]): string {
  return flags.map((f) => `${csvLine([label, `check.${f.code}`, f.evidence, 1, ""])}\r\n`).join("");
}
