// Advice about how a run was set up, shown next to its results: what makes the numbers
// misleading and what to change. Pure: the caller supplies the host facts it knows.
// The tool-specific advice is each probe's `advice` (probes/<tool>/advice.ts); this file adds
// what holds for every benchmark.
import { getProbe } from "./catalog";
import type { NormalisedResult } from "./core/types";

export interface QualityInput {
  probe: string;
  /** Stored parameters; validated here again, invalid ones yield no advice. */
  params: unknown;
  result?: NormalisedResult | null;
  profile?: { memTotalBytes?: number; target?: { fsType?: string } };
  /** How many runs of this configuration exist (the run itself included). */
  repeats?: number;
}

const RAM_FS = new Set(["tmpfs", "ramfs"]);

export function qualityWarnings(input: QualityInput): string[] {
  const probe = getProbe(input.probe);
  if (!probe) return [];
  const parsed = probe.paramsSchema.safeParse(input.params);
  if (!parsed.success) return [];
  const memTotal = input.profile?.memTotalBytes;
  const fsType = input.profile?.target?.fsType;
  const out: string[] = [];

  if (probe.role === "benchmark" && fsType && RAM_FS.has(fsType)) {
    out.push(`The target is on ${fsType}, which lives in RAM: the results measure memory, not a disk.`);
  }
  out.push(...probe.advice(parsed.data, { memTotalBytes: memTotal, result: input.result }));
  // An observer watches; the benchmarks measure, and one measurement says nothing about its spread.
  const repeats = input.repeats ?? 1;
  if (probe.role === "benchmark" && repeats < 3) {
    out.push(
      repeats <= 1
        ? "This is a single run: repeat it 3–5 times and compare the spread before drawing conclusions."
        : `Only ${repeats} runs of this configuration: repeat it 3–5 times and compare the spread before drawing conclusions.`,
    );
  }
  return out;
}
