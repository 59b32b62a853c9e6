import type { ProbeDefinition } from "../core/probe";
import { buildDdCommand, ddRequiredFreeBytes } from "./command";
import { ddDefaults, ddParamsSchema, ddPresets, type DdParams } from "./params";
import { parseDd } from "./parse";
import { extractDdProgress } from "./progress";

export const ddProbe: ProbeDefinition<DdParams> = {
  id: "dd",
  title: "dd sequential throughput",
  description:
    "Writes or reads one large file in the target with dd and reports bytes, seconds and bytes per second. Direct I/O and fdatasync decide whether the page cache is measured too.",
  tool: {
    binary: "dd",
    debianPackage: "coreutils",
    installHint: "dd is part of coreutils, which every Debian system has installed (apt-get install coreutils).",
  },
  paramsSchema: ddParamsSchema,
  defaults: ddDefaults,
  presets: ddPresets,
  buildCommand: buildDdCommand,
  parse: parseDd,
  extractProgress: extractDdProgress,
  requiredFreeBytes: ddRequiredFreeBytes,
};
