import type { z } from "zod";
import type { ProbeClaim, RunCheck } from "../checks/types";
import { displayMeasurement, type MetricVocabulary } from "./metrics";
import type { PackagesByFamily } from "./packages";
import type { NormalisedPaste, PastedRun } from "./paste";
import { stripAnsi } from "./text";
import type { CommandSpec, Measurement, NormalisedResult, ParseOutcome, Progress, Tool } from "./types";
import type { ProbeView } from "./view";

export type ProbeId = Tool;

/** How the agent finds out which version of a binary a host has. */
export interface VersionDetection {
  /** Arguments that make the binary print its version, e.g. ["--version"]. */
  args: string[];
  /** Matches the version output; its first capture group is the version, e.g. "3.489". */
  pattern: RegExp;
}

export interface ToolInfo {
  /** The executable the agent looks up on PATH and runs. */
  binary: string;
  /** Which package brings the binary (and its companions) on each distribution family. */
  packages: PackagesByFamily;
  /**
   * The package lives outside the distribution's default components: Debian's non-free,
   * Ubuntu's multiverse. The install command enables that component first.
   */
  outsideMainRepos?: boolean;
  /** What to do when the binary is missing, shown in the launch form and agent refusals. */
  installHint: string;
  /** Version detection of `binary` for the host's capabilities. */
  version: VersionDetection;
  /** Further binaries the probe uses (a sampler that reads its data files back with a second program), detected alike. */
  companions?: readonly { binary: string; version: VersionDetection }[];
}

/**
 * A probe that can read a host's own recorded history (daily files a system service keeps):
 * the agent's `--history` finds the files, runs `command` on each and uploads its output; the
 * server checks `fileDate` against the day sent and parses the output with the probe's parser.
 */
export interface HostHistorySource {
  /** Where the daily files live when `--history` names no directory. */
  defaultDirs: readonly string[];
  isDayFile(name: string): boolean;
  /** argv that prints one file as output the probe's parser reads. */
  command(file: string): CommandSpec;
  /** The file's own date (YYYY-MM-DD) from that output, or null when it is not such output. */
  fileDate(output: string): string | null;
}

/** One row of a guide's published table (content/data/*.json): column key → cell. */
export type ReferenceRow = Readonly<Record<string, string | number | boolean | null>>;

/**
 * How a guide's published table becomes reference runs of this probe (lib/server/reference):
 * the dataset names the probe; the probe knows what a row means.
 */
export interface ReferenceMapping {
  /**
   * True when one run measures one operation (a write or a read): each operation of a series
   * becomes its own run. False: all operations of a series are one run (a table of operations).
   */
  runPerOperation: boolean;
  /** A row's published value as a measurement in the unit the parser stores; null skips the row. */
  measurement(row: ReferenceRow, value: number, dataset: { fileKiB?: number }): Measurement | null;
  /**
   * The run's parameters when they follow from the operation (a write-or-read mode) or from the dataset's
   * presets (a method column); default: `{ preset }` when the dataset names one.
   */
  params?(operation: string, dataset: { preset?: string; writePreset?: string }): Record<string, unknown>;
}

/**
 * One headline figure of a run: what an experiment's verdict compares between arms. `value` is in
 * the display unit (probes/core/metrics.ts), so medians read like the run page.
 */
export interface HeadlineValue {
  metric: string;
  dims: Record<string, string>;
  /** What is measured, in words: "write throughput", "p99 completion latency". */
  noun: string;
  betterWhen: "higher" | "lower";
  /** For throughput: the verb of "xfs wrote 18 % faster than ext4". */
  verb?: string;
  value: number;
  unit: string;
}

/** What advice about a run's setup may use besides its parameters. */
export interface AdviceContext {
  /** The host's RAM, when its profile recorded it. */
  memTotalBytes?: number;
  result?: NormalisedResult | null;
}

export interface PresetDef<P> {
  title: string;
  description: string;
  /** Everything except `target`, which belongs to the host the preset runs on. */
  params: Omit<P, "target">;
  /**
   * The preset's file (its `sizeMiB`) should spread past the caches: the launch form sets it per
   * target with `presetSizeMiB` (probes/core/sizing.ts): twice the RAM for buffered I/O on a
   * disk, the run's reach for O_DIRECT, never past the free space or a quarter of RAM on tmpfs.
   */
  sizeBeyondRam?: boolean;
}

/**
 * One probe of the catalog. Methods (not function-valued properties) keep the parameter types
 * bivariant, so the catalog can hold probes with different parameter shapes side by side.
 */
export interface ProbeDefinition<P extends { target: string }> {
  /** Catalog id: its key in the registry (probes/catalog.ts). */
  id: ProbeId;
  /** Title of the launch form and the run page. */
  title: string;
  /** One paragraph for the launch form: what it measures and what it writes. */
  description: string;
  /** The binary, its package per distribution, install hint and version detection. */
  tool: ToolInfo;
  /** Present when the probe can read the host's own recorded history (agent `--history`). */
  history?: HostHistorySource;
  /** Label of the probe in the import form: which output formats the parser reads. */
  importLabel: string;
  /**
   * "benchmark" measures and writes into its target; "observer" only watches the kernel:
   * the generic advice (a RAM-backed target, too few repeats) applies to benchmarks only.
   */
  role: "benchmark" | "observer";
  /** Metric names its results may carry, their stored units and which way is better. */
  metrics: MetricVocabulary;
  /** Validates parameters in the server and again in the agent. */
  paramsSchema: z.ZodType<P>;
  defaults: Omit<P, "target">;
  presets: Record<string, PresetDef<P>>;
  /**
   * argv (never a shell) from validated parameters. `runDir`: the run's private directory inside
   * the target, made by the agent; scratch files go there.
   */
  buildCommand(params: P, runDir: string): CommandSpec;
  /** The normalised result from the whole output; never throws (see guardParse). */
  parse(output: string): ParseOutcome;
  /**
   * Where the runs of a paste holding several begin and end (probes/<tool>/split.ts), for imports
   * and the parse CLI (probes/paste.ts); absent when the tool's runs cannot be told apart.
   */
  splitRuns?(paste: NormalisedPaste): PastedRun[];
  /** Progress from the output so far, or null when it says nothing yet. */
  extractProgress(outputSoFar: string, params: P): Progress | null;
  /** Bytes the run writes into its target (0 when it writes nothing). */
  requiredFreeBytes(params: P): number;
  /**
   * Tool-specific advice about how the run was set up (page cache, missing direct I/O, too few
   * samples); the generic advice lives in probes/quality.ts.
   */
  advice(params: P, context: AdviceContext): string[];
  /** How results are drawn: one run's charts and a comparison section, in display units. */
  view: ProbeView;
  /** How a guide's published table becomes reference runs; absent when no guide has one. */
  reference?: ReferenceMapping;
  /**
   * The figures an experiment's verdict compares and whose spread decides when it is stable: a
   * few per run (dd: throughput; fio: bandwidth, IOPS and p99 per job and direction).
   */
  headline(result: NormalisedResult, params: P): HeadlineValue[];
  /**
   * What a run says it did, for the checks against its telemetry (probes/checks): bytes read and
   * written and how, its own timing, its threads. Absent for observers (sar), which only the
   * generic checks judge.
   */
  checks?: ProbeChecks<P>;
}

export interface ProbeChecks<P> {
  /** Null when the result says too little to judge (a failed or empty report). */
  claim(params: P, result: NormalisedResult): ProbeClaim | null;
  /**
   * Flags the result raises about itself, whatever the telemetry says (fio's SNIA-style run that
   * never reached steady state): a finding about the measurement, not a failed run.
   */
  flags?(params: P, result: NormalisedResult): RunCheck[];
}

/** A stored measurement as a headline value in its display unit. */
export function headlineOf(m: Measurement, h: Omit<HeadlineValue, "metric" | "dims" | "value" | "unit">): HeadlineValue {
  const d = displayMeasurement(m);
  const dims = Object.fromEntries(Object.entries(m.dims).map(([k, v]) => [k, String(v)]));
  return { metric: m.metric, dims, value: d.value, unit: d.unit, ...h };
}

export function success(
  tool: Tool,
  toolVersion: string | null,
  measurements: NormalisedResult["measurements"],
  warnings: string[],
  format?: string,
): ParseOutcome {
  return { ok: true, result: { tool, toolVersion, measurements, warnings, ...(format ? { format } : {}) } };
}

export function failure(error: string): ParseOutcome {
  return { ok: false, error };
}

/**
 * Last line of defence for "never throws": the parsers are written to be total, but a parser bug
 * must surface as a failed parse of that one output, not as a crashed agent or request.
 */
export function guardParse(tool: Tool, parse: (output: string) => ParseOutcome) {
  return (output: string): ParseOutcome => {
    if (typeof output !== "string") return failure(`not ${tool} output: expected text`);
    try {
      return parse(stripAnsi(output));
    } catch (err) {
      const message = err instanceof Error ? err.message : String(err);
      return failure(`${tool} parser failed unexpectedly: ${message}`);
    }
  };
}

// Progress helpers live beside the live trackers, which the browser loads without this module.
export { guardProgress, makeProgress } from "./progress";
