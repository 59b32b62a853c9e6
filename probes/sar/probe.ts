import type { ProbeDefinition } from "../core/probe";
import { buildSarCommand, sarRequiredFreeBytes } from "./command";
import { sarDefaults, sarParamsSchema, sarPresets, type SarParams } from "./params";
import { parseSar } from "./parse";
import { extractSarProgress } from "./progress";

export const sarProbe: ProbeDefinition<SarParams> = {
  id: "sar",
  title: "sar system activity",
  description:
    "Samples paging, disk, memory and CPU counters at a fixed interval. Writes nothing; run it alongside another probe to see what the kernel does meanwhile.",
  tool: {
    binary: "sar",
    debianPackage: "sysstat",
    installHint: "apt-get install sysstat (sar works with an interval and count without enabling the collection service).",
  },
  paramsSchema: sarParamsSchema,
  defaults: sarDefaults,
  presets: sarPresets,
  buildCommand: buildSarCommand,
  parse: parseSar,
  extractProgress: extractSarProgress,
  requiredFreeBytes: sarRequiredFreeBytes,
};
