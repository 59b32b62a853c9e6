import type { ReferenceMapping } from "../core/probe";

const writes = (operation: string) => /write/i.test(operation);

/** Published sequential throughput (value in MB/s, operation "sequential read|write"): one run per direction. */
export const ddReference: ReferenceMapping = {
  runPerOperation: true,
  measurement: (_row, value) => ({ metric: "throughput", value: value * 1e6, unit: "B/s", dims: {} }),
  params: (operation) => ({ mode: writes(operation) ? "write" : "read" }),
};
