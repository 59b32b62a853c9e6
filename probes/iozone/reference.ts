import type { ReferenceMapping } from "../core/probe";

/** A published IOzone table (columns operation, record_kb, value in KB/s): one run per series. */
export const iozoneReference: ReferenceMapping = {
  runPerOperation: false,
  // iozone's "KB" are 1024 bytes: the published KB/s are KiB/s.
  measurement: (row, value, dataset) => ({ metric: String(row.operation), value, unit: "KiB/s", dims: { file_kib: dataset.fileKiB ?? 0, record_kib: Number(row.record_kb) } }),
};
