// A probe's metric vocabulary: which metric names its results may carry, in which unit the parser
// stores them, and the ONE unit every view shows them in (run page, compare, exports). Stored
// results keep the tool's own unit (they are re-derivable from the log); conversion happens
// only when a value is shown, through `displayMeasurement`.
import type { Measurement } from "./types";

/** Whether a larger value is better (throughput), worse (latency) or neither (a size). */
export type Better = "higher" | "lower" | null;

/** How a stored unit is shown: display value = stored value × scale. */
export interface DisplayUnit {
  unit: string;
  scale: number;
}

/**
 * Units Probebook shows. Throughput is always MiB/s (2²⁰ bytes per second): tools print KiB/s
 * (as "KB/s"), MB/s (10⁶) or B/s, so one binary unit lets any two probes'
 * bars sit on one axis. Latencies are shown in µs, sizes in MiB.
 */
export const DISPLAY_UNITS: Readonly<Record<string, DisplayUnit>> = {
  "KiB/s": { unit: "MiB/s", scale: 1 / 1024 },
  "KB/s": { unit: "MiB/s", scale: 1 / 1024 },
  "kB/s": { unit: "MiB/s", scale: 1 / 1024 },
  "B/s": { unit: "MiB/s", scale: 1 / 2 ** 20 },
  "MB/s": { unit: "MiB/s", scale: 1e6 / 2 ** 20 },
  ns: { unit: "µs", scale: 1 / 1000 },
  B: { unit: "MiB", scale: 1 / 2 ** 20 },
};

/** The unit a stored unit is shown in (itself when Probebook does not convert it). */
export function displayUnit(storedUnit: string): DisplayUnit {
  return DISPLAY_UNITS[storedUnit] ?? { unit: storedUnit, scale: 1 };
}

/** A measurement as every view shows it: value and unit converted to the display unit. */
export function displayMeasurement(m: Measurement): Measurement {
  const d = displayUnit(m.unit);
  return d.scale === 1 && d.unit === m.unit ? m : { ...m, value: m.value * d.scale, unit: d.unit };
}

/** One metric a probe's results may carry. */
export interface MetricDef {
  /** `Measurement.metric` as the parser writes it, e.g. "random_read", "bw". */
  id: string;
  /** Name people read, e.g. "random read". */
  title: string;
  /** `Measurement.unit` as the parser writes it, e.g. "KiB/s", "B/s", "ns". */
  unit: string;
  better: Better;
}

export interface MetricVocabulary {
  /** The known metrics, in reading order (charts and tables follow it). */
  metrics: readonly MetricDef[];
  /**
   * Names accepted besides `metrics`: a pattern ("throughput_<test>"), or "any" for a
   * tool whose columns are open-ended (a sampler that adds columns between releases).
   */
  also?: RegExp | "any";
}

// Results can hold 100,000s of measurements: look names up in a set built once per vocabulary.
const known = new WeakMap<MetricVocabulary, ReadonlySet<string>>();

/** Whether a stored or imported result may carry this metric name. */
export function metricAllowed(vocabulary: MetricVocabulary, metric: string): boolean {
  if (vocabulary.also === "any") return true;
  let ids = known.get(vocabulary);
  if (!ids) known.set(vocabulary, (ids = new Set(vocabulary.metrics.map((m) => m.id))));
  if (ids.has(metric)) return true;
  return vocabulary.also instanceof RegExp && vocabulary.also.test(metric);
}
