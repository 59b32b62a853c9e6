import type { MetricVocabulary } from "../core/metrics";

/**
 * Each step (dims.op: create, stat, delete) has a rate and two latencies; dims also say the
 * layout (flat or tree), how many files and over how many directories.
 */
export const FSMETA_METRICS: MetricVocabulary = {
  metrics: [
    { id: "rate", title: "files per second", unit: "files/s", better: "higher" },
    { id: "lat_p99", title: "p99 latency", unit: "ns", better: "lower" },
    { id: "lat_mean", title: "mean latency", unit: "ns", better: "lower" },
  ],
};
