import type { ProbeDefinition } from "../core/probe";
import { buildFsmetaCommand, fsmetaRequiredFreeBytes } from "./command";
import { fsmetaDefaults, fsmetaParamsSchema, fsmetaPresets, type FsmetaParams } from "./params";
import { parseFsmeta } from "./parse";
import { extractFsmetaProgress } from "./progress";

export const fsmetaProbe: ProbeDefinition<FsmetaParams> = {
  id: "fsmeta",
  title: "File-system metadata speed (fio)",
  description:
    "Creates, stats and deletes many empty files with fio's filecreate, filestat and filedelete engines, in one directory or spread over several. Reports files per second and mean and 99th-percentile latency of each step.",
  tool: {
    binary: "fio",
    debianPackage: "fio",
    installHint: "apt-get install fio (3.x: the filecreate, filestat and filedelete engines are needed)",
  },
  paramsSchema: fsmetaParamsSchema,
  defaults: fsmetaDefaults,
  presets: fsmetaPresets,
  buildCommand: buildFsmetaCommand,
  parse: parseFsmeta,
  extractProgress: extractFsmetaProgress,
  requiredFreeBytes: fsmetaRequiredFreeBytes,
};
