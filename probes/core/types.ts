// Shared shapes of the probe catalog. This folder is bundled into the host agent, so it
// must stay free of Node, Next.js and database imports: zod is the only dependency.

import type { ToolId } from "../catalog";

/** A probe id; the registry in probes/catalog.ts is the one list of them. */
export type Tool = ToolId;

export interface Measurement {
  metric: string;
  value: number;
  unit: string;
  dims: Record<string, string | number>;
}

export interface NormalisedResult {
  tool: Tool;
  toolVersion: string | null;
  measurements: Measurement[];
  warnings: string[];
  /** Which of the tool's output forms the parser recognised, e.g. a JSON form, or the output of another implementation of the tool. */
  format?: string;
}

export type ParseOutcome =
  | { ok: true; result: NormalisedResult }
  | { ok: false; error: string };

export interface Progress {
  done: number;
  total: number;
  unit: string;
  /** 0..1 */
  fraction: number;
  label: string;
  /**
   * The tool says which step runs but not how far into it (fio's 0 % and "eta 74565d" while it
   * creates files): the bar shows the steps done and no percentage.
   */
  withinStepUnknown?: boolean;
}

/** An argv invocation: the runner must spawn `file` with `args` directly, never through a shell. */
export interface CommandSpec {
  file: string;
  args: string[];
  env: Record<string, string>;
  cwd: string;
  timeoutSec: number;
  /** Scratch files inside the run directory that the runner deletes after the run (also after a failure). */
  files?: string[];
  /**
   * Files the agent writes before the tool starts (O_EXCL | O_NOFOLLOW, 0600): `bytes` of filler
   * for tools that only read, or `content` (a job file the tool reads).
   */
  layout?: { file: string; bytes: number; content?: string }[];
  /**
   * Files the tool writes into its run directory (`cwd`) that belong to its output, by name:
   * after the process exits the agent appends each regular file that matches, in name order, to
   * the run's output between frame lines (probes/core/collected-files.ts).
   */
  collect?: RegExp;
  /**
   * A probe that runs in steps (fio's SNIA-style rounds, probes/fio/snia): after a step exits 0
   * and was not cancelled, the agent calls `next` with that step's output and its number
   * (1-based); a command runs as the next step, null ends the run. Evaluated in the agent, between
   * processes: each step is its own argv, never a shell. Before each step the agent writes a step
   * frame into the output (probes/core/steps.ts) so the parser can tell the steps apart.
   */
  next?(stepOutput: string, step: number): CommandSpec | null;
}
