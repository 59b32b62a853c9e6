import type { z } from "zod";
import { stripAnsi } from "./text";
import type { CommandSpec, NormalisedResult, ParseOutcome, Progress, Tool } from "./types";

export type ProbeId = Tool;

export interface ToolInfo {
  binary: string;
  debianPackage: string;
  installHint: string;
}

export interface PresetDef<P> {
  title: string;
  description: string;
  /** Everything except `target`, which belongs to the host the preset runs on. */
  params: Omit<P, "target">;
}

/**
 * One probe of the catalog. Methods (not function-valued properties) keep the parameter types
 * bivariant, so the catalog can hold probes with different parameter shapes side by side.
 */
export interface ProbeDefinition<P extends { target: string }> {
  id: ProbeId;
  title: string;
  description: string;
  tool: ToolInfo;
  paramsSchema: z.ZodType<P>;
  defaults: Omit<P, "target">;
  presets: Record<string, PresetDef<P>>;
  /** `runDir`: the run's private directory inside the target, made by the agent; scratch files go there. */
  buildCommand(params: P, runDir: string): CommandSpec;
  parse(output: string): ParseOutcome;
  extractProgress(outputSoFar: string, params: P): Progress | null;
  requiredFreeBytes(params: P): number;
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

export function guardProgress<P>(
  extract: (output: string, params: P) => Progress | null,
): (output: string, params: P) => Progress | null {
  return (output, params) => {
    if (typeof output !== "string") return null;
    try {
      return extract(stripAnsi(output), params);
    } catch {
      return null;
    }
  };
}

export function makeProgress(done: number, total: number, unit: string, label: string): Progress {
  const safeTotal = total > 0 ? total : 0;
  const clamped = Math.max(0, safeTotal > 0 ? Math.min(done, safeTotal) : done);
  const fraction = safeTotal > 0 ? clamped / safeTotal : 0;
  return { done: clamped, total: safeTotal, unit, fraction, label };
}
