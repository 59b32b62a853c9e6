import type { ProbeDefinition } from "../core/probe";
import { iozoneHeadline } from "./headline";
import { iozoneAdvice } from "./advice";
import { buildIozoneCommand, iozoneRequiredFreeBytes } from "./command";
import { iozoneDefaults, iozoneParamsSchema, iozonePresets, type IozoneParams } from "./params";
import { iozoneMetrics } from "./metrics";
import { parseIozone } from "./parse";
import { extractIozoneProgress } from "./progress";
import { iozoneReference } from "./reference";
import { iozoneView } from "./view";

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
    // "        Version $Revision: 3.489 $"
    version: { args: ["-v"], pattern: /Version \$Revision:\s*([\d.]+)/ },
  },
  importLabel: "iozone (auto tables, -t throughput, -R report)",
  role: "benchmark",
  metrics: iozoneMetrics,
  paramsSchema: iozoneParamsSchema,
  defaults: iozoneDefaults,
  presets: iozonePresets,
  buildCommand: buildIozoneCommand,
  parse: parseIozone,
  extractProgress: extractIozoneProgress,
  requiredFreeBytes: iozoneRequiredFreeBytes,
  advice: iozoneAdvice,
  view: iozoneView,
  reference: iozoneReference,
  headline: iozoneHeadline,
};
