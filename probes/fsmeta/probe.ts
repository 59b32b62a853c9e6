import { fsmetaChecks } from "./checks";
import { samePackage } from "../core/packages";
import type { ProbeDefinition } from "../core/probe";
import { fsmetaHeadline } from "./headline";
import { fsmetaAdvice } from "./advice";
import { buildFsmetaCommand, fsmetaRequiredFreeBytes } from "./command";
import { FSMETA_METRICS } from "./metrics";
import { fsmetaDefaults, fsmetaParamsSchema, fsmetaPresets, type FsmetaParams } from "./params";
import { parseFsmeta } from "./parse";
import { extractFsmetaProgress } from "./progress";
import { fsmetaReference } from "./reference";
import { fsmetaView } from "./view";

export const fsmetaProbe: ProbeDefinition<FsmetaParams> = {
  id: "fsmeta",
  title: "File-system metadata speed (fio)",
  description:
    "Creates, stats and deletes many empty files with fio's filecreate, filestat and filedelete engines, in one directory or spread over several. Reports files per second and mean and 99th-percentile latency of each step.",
  tool: {
    binary: "fio",
    packages: samePackage("fio"),
    installHint: "apt-get install fio (fio 3.x: the filecreate, filestat and filedelete engines are needed)",
    // "fio-3.33"
    version: { args: ["--version"], pattern: /^fio-(\S+)/m },
  },
  importLabel: "fio filecreate/filestat/filedelete (--output-format=json or normal,json)",
  role: "benchmark",
  metrics: FSMETA_METRICS,
  paramsSchema: fsmetaParamsSchema,
  defaults: fsmetaDefaults,
  presets: fsmetaPresets,
  buildCommand: buildFsmetaCommand,
  parse: parseFsmeta,
  extractProgress: extractFsmetaProgress,
  requiredFreeBytes: fsmetaRequiredFreeBytes,
  advice: fsmetaAdvice,
  view: fsmetaView,
  reference: fsmetaReference,
  headline: fsmetaHeadline,
  checks: fsmetaChecks,
};
