import type { ReferenceMapping } from "../core/probe";

/** Published random-I/O bandwidth (value in MB/s, operation "random read|write"): one run per direction. */
export const fioReference: ReferenceMapping = {
  runPerOperation: true,
  measurement: (row, value) => {
    const direction = /write/i.test(String(row.operation)) ? "write" : "read";
    return { metric: "bw", value: value * 1e6, unit: "B/s", dims: { job: String(row.operation), direction } };
  },
};
