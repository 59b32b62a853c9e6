import type { MetricVocabulary } from "../core/metrics";

/** iozone's operations in the order of its auto table; its "KB" are 1024 bytes, so the parser stores KiB/s. */
export const IOZONE_OPERATIONS = [
  { id: "write", title: "write" },
  { id: "rewrite", title: "rewrite" },
  { id: "read", title: "read" },
  { id: "reread", title: "re-read" },
  { id: "random_read", title: "random read" },
  { id: "random_write", title: "random write" },
  { id: "backward_read", title: "backward read" },
  { id: "record_rewrite", title: "record rewrite" },
  { id: "stride_read", title: "stride read" },
  { id: "fwrite", title: "fwrite" },
  { id: "frewrite", title: "frewrite" },
  { id: "fread", title: "fread" },
  { id: "freread", title: "freread" },
] as const;

export const iozoneMetrics: MetricVocabulary = {
  metrics: IOZONE_OPERATIONS.map((op) => ({ id: op.id, title: op.title, unit: "KiB/s", better: "higher" as const })),
  // Throughput mode: "throughput_<test>" (all processes together), also in KiB/s.
  also: /^throughput_[a-z0-9_]+$/,
};
