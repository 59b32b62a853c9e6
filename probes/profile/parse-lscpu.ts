import { cleanString, isRecord, parseJsonSafe, toCount } from "./json";

export interface LscpuFacts {
  model: string | null;
  count: number | null;
  sockets: number | null;
  numaNodes: number | null;
  /** "0" → "0,1" as lscpu prints "NUMA node0 CPU(s): 0,1". */
  cpusPerNode: Record<string, string>;
}

/**
 * Reads `lscpu -J`. util-linux ≥ 2.38 may nest fields under "children" (Model name under
 * Vendor ID, …), older ones print a flat list: both are walked the same way.
 */
export function parseLscpuJson(text: string): LscpuFacts {
  const fields = new Map<string, string>();
  const root = parseJsonSafe(text);
  const walk = (items: unknown): void => {
    if (!Array.isArray(items)) return;
    for (const item of items) {
      if (!isRecord(item)) continue;
      const field = typeof item.field === "string" ? item.field.replace(/:\s*$/, "").trim() : null;
      const data = cleanString(item.data);
      if (field && data !== null && !fields.has(field)) fields.set(field, data);
      walk(item.children);
    }
  };
  if (isRecord(root)) walk(root.lscpu);

  const cpusPerNode: Record<string, string> = {};
  for (const [field, data] of fields) {
    const m = /^NUMA node(\d+) CPU\(s\)$/.exec(field);
    if (m?.[1] !== undefined) cpusPerNode[m[1]] = data;
  }
  return {
    model: fields.get("Model name") ?? null,
    count: toCount(fields.get("CPU(s)")),
    sockets: toCount(fields.get("Socket(s)")),
    numaNodes: toCount(fields.get("NUMA node(s)")),
    cpusPerNode,
  };
}
