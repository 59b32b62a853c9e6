import type { Measurement } from "../core/types";

/**
 * sysstat 12.7.5 stopped printing %vmeff (page reclaim efficiency). Dashboards compare hosts
 * across versions, so it is derived where missing, exactly as sar computed it:
 * 100 × pgsteal/s ÷ (pgscank/s + pgscand/s), and 0 when nothing was scanned.
 */
export function deriveVmeff(measurements: Measurement[]): { measurements: Measurement[]; derived: number } {
  const rows = new Map<string, Map<string, Measurement>>();
  for (const m of measurements) {
    // A ratio of extremes is no extreme of the ratio: sar -x rows (stat: min|max) get none.
    if (m.dims.section !== "paging" || m.dims.stat !== undefined) continue;
    const key = JSON.stringify(m.dims);
    const row = rows.get(key) ?? new Map<string, Measurement>();
    row.set(m.metric, m);
    rows.set(key, row);
  }
  const added: Measurement[] = [];
  for (const row of rows.values()) {
    const steal = row.get("pgsteal/s");
    const scanK = row.get("pgscank/s");
    const scanD = row.get("pgscand/s");
    if (row.has("%vmeff") || !steal || !scanK || !scanD) continue;
    const scanned = scanK.value + scanD.value;
    const value = scanned > 0 ? (100 * steal.value) / scanned : 0;
    added.push({ metric: "%vmeff", value, unit: "%", dims: { ...steal.dims } });
  }
  return { measurements: [...measurements, ...added], derived: added.length };
}
