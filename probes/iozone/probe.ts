import type { ProbeDefinition } from "../core/probe";
import { buildIozoneCommand, iozoneRequiredFreeBytes } from "./command";
import { iozoneDefaults, iozoneParamsSchema, iozonePresets, type IozoneParams } from "./params";
import { parseIozone } from "./parse";
import { extractIozoneProgress } from "./progress";

export const iozoneProbe: ProbeDefinition<IozoneParams> = {
  id: "iozone",
  title: "iozone file system benchmark",
  description:
    "Measures file read/write throughput over a grid of file and record sizes (auto mode) or with several processes at once (throughput mode). Writes its test file into the target directory.",
  tool: {
    binary: "iozone",
    debianPackage: "iozone3",
    installHint:
      "iozone3 is in Debian's non-free component: add \"non-free\" to the Components: line of /etc/apt/sources.list.d/debian.sources, run apt-get update, then apt-get install iozone3.",
  },
  paramsSchema: iozoneParamsSchema,
  defaults: iozoneDefaults,
  presets: iozonePresets,
  buildCommand: buildIozoneCommand,
  parse: parseIozone,
  extractProgress: extractIozoneProgress,
  requiredFreeBytes: iozoneRequiredFreeBytes,
};
