import { ddChecks } from "./checks";
import { samePackage } from "../core/packages";
import type { ProbeDefinition } from "../core/probe";
import { ddHeadline } from "./headline";
import { ddAdvice } from "./advice";
import { buildDdCommand, ddRequiredFreeBytes } from "./command";
import { ddDefaults, ddParamsSchema, ddPresets, type DdParams } from "./params";
import { parseDd } from "./parse";
import { splitDdRuns } from "./split";
import { extractDdProgress } from "./progress";
import { ddReference } from "./reference";
import { ddView } from "./view";

export const ddProbe: ProbeDefinition<DdParams> = {
  id: "dd",
  title: "dd sequential throughput",
  description:
    "Writes or reads one large file in the target with dd and reports bytes, seconds and bytes per second. Direct I/O and fdatasync decide whether the page cache is measured too.",
  tool: {
    binary: "dd",
    packages: samePackage("coreutils"),
    installHint: "dd is part of coreutils, which every Debian system has installed (apt-get install coreutils).",
    // "dd (coreutils) 9.1"
    version: { args: ["--version"], pattern: /^dd \([^)]*\)\s+(\S+)/m },
  },
  importLabel: "dd (coreutils in any language, busybox, toybox, BSD/macOS)",
  role: "benchmark",
  metrics: {
    metrics: [
      { id: "bytes", title: "size", unit: "B", better: null },
      { id: "seconds", title: "elapsed", unit: "s", better: null },
      { id: "throughput", title: "throughput", unit: "B/s", better: "higher" },
    ],
  },
  paramsSchema: ddParamsSchema,
  defaults: ddDefaults,
  presets: ddPresets,
  buildCommand: buildDdCommand,
  parse: parseDd,
  splitRuns: splitDdRuns,
  extractProgress: extractDdProgress,
  requiredFreeBytes: ddRequiredFreeBytes,
  advice: ddAdvice,
  view: ddView,
  reference: ddReference,
  headline: ddHeadline,
  checks: ddChecks,
};
