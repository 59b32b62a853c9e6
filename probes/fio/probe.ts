import { fioChecks } from "./checks";
import { samePackage } from "../core/packages";
import type { ProbeDefinition } from "../core/probe";
import { fioHeadline } from "./headline";
import { fioAdvice } from "./advice";
import { buildFioCommand, fioRequiredFreeBytes } from "./command";
import { fioDefaults, fioParamsSchema, fioPresets, type FioParams } from "./params";
import { parseFio } from "./parse";
import { splitFioRuns } from "./split";
import { extractFioProgress } from "./progress";
import { fioReference } from "./reference";
import { fioView } from "./view";

export const fioProbe: ProbeDefinition<FioParams> = {
  id: "fio",
  title: "fio flexible I/O tester",
  description:
    "Sequential or random reads and writes on one file in the target, with direct I/O and a chosen I/O engine and queue depth. Shows fio's progress live; reports bandwidth, IOPS and latency, the whole completion-latency percentile curve, a latency histogram and the figures of every second.",
  tool: {
    binary: "fio",
    packages: samePackage("fio"),
    installHint: "apt-get install fio",
    // "fio-3.33"
    version: { args: ["--version"], pattern: /^fio-(\S+)/m },
  },
  importLabel: "fio JSON, json+ or its normal text report",
  role: "benchmark",
  metrics: {
    metrics: [
      { id: "bw", title: "bandwidth", unit: "B/s", better: "higher" },
      { id: "iops", title: "IOPS", unit: "1/s", better: "higher" },
      { id: "lat_mean", title: "mean latency", unit: "ns", better: "lower" },
      { id: "clat_p99", title: "p99 completion latency", unit: "ns", better: "lower" },
      { id: "clat_mean", title: "mean completion latency", unit: "ns", better: "lower" },
      { id: "slat_mean", title: "mean submission latency", unit: "ns", better: "lower" },
      { id: "clat_bin", title: "completion latencies in a json+ bin", unit: "count", better: "lower" },
      { id: "lat_share", title: "share of I/Os in a latency bucket", unit: "%", better: null },
      { id: "bw_series", title: "bandwidth in one second", unit: "B/s", better: "higher" },
      { id: "iops_series", title: "IOPS in one second", unit: "1/s", better: "higher" },
      { id: "io_bytes", title: "bytes transferred", unit: "B", better: null },
      { id: "runtime", title: "runtime", unit: "ms", better: null },
      { id: "ss_attained", title: "steady state attained (1) or not (0)", unit: "", better: null },
      { id: "ss_after", title: "time until steady", unit: "ms", better: null },
      { id: "clat_mean_series", title: "mean completion latency in one second", unit: "ns", better: "lower" },
      // SNIA-style rounds (probes/fio/snia): each round's IOPS and the steady-state verdict.
      { id: "round_iops", title: "IOPS of one round", unit: "1/s", better: "higher" },
      { id: "ss_reached", title: "steady state reached (1) or not (0)", unit: "count", better: null },
      { id: "ss_rounds", title: "rounds to steady state (or rounds run)", unit: "count", better: null },
      { id: "ss_window_iops", title: "mean IOPS of the steady-state window", unit: "1/s", better: "higher" },
      { id: "ss_range", title: "range of the window's IOPS, % of their mean", unit: "%", better: null },
      { id: "ss_excursion", title: "fitted line's excursion over the window, % of the mean", unit: "%", better: null },
    ],
    // Every percentile fio prints (clat_p99.9, lat_p50 …).
    also: /^(clat|lat)_p\d+(\.\d+)?$/,
  },
  paramsSchema: fioParamsSchema,
  defaults: fioDefaults,
  presets: fioPresets,
  buildCommand: buildFioCommand,
  parse: parseFio,
  splitRuns: splitFioRuns,
  extractProgress: extractFioProgress,
  requiredFreeBytes: fioRequiredFreeBytes,
  advice: fioAdvice,
  view: fioView,
  reference: fioReference,
  headline: fioHeadline,
  checks: fioChecks,
};
