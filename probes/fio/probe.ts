import type { ProbeDefinition } from "../core/probe";
import { buildFioCommand, fioRequiredFreeBytes } from "./command";
import { fioDefaults, fioParamsSchema, fioPresets, type FioParams } from "./params";
import { parseFio } from "./parse";
import { extractFioProgress } from "./progress";

export const fioProbe: ProbeDefinition<FioParams> = {
  id: "fio",
  title: "fio flexible I/O tester",
  description:
    "Sequential or random reads and writes on one file in the target, with direct I/O and a chosen I/O engine and queue depth. Reports bandwidth, IOPS, mean latency and 99th-percentile completion latency.",
  tool: {
    binary: "fio",
    debianPackage: "fio",
    installHint: "apt-get install fio",
  },
  paramsSchema: fioParamsSchema,
  defaults: fioDefaults,
  presets: fioPresets,
  buildCommand: buildFioCommand,
  parse: parseFio,
  extractProgress: extractFioProgress,
  requiredFreeBytes: fioRequiredFreeBytes,
};
