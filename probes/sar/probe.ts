import { samePackage } from "../core/packages";
import type { ProbeDefinition } from "../core/probe";
import { sarHeadline } from "./headline";
import { sarAdvice } from "./advice";
import { buildSarCommand, sarRequiredFreeBytes } from "./command";
import { sarDefaults, sarParamsSchema, sarPresets, type SarParams } from "./params";
import { parseSar } from "./parse";
import { splitSarRuns } from "./split";
import { extractSarProgress } from "./progress";
import { sarView } from "./view";
import { isSaFileName, sadfHistoryCommand, sadfJsonFileDate, SYSSTAT_HISTORY_DIRS } from "./history";

export const sarProbe: ProbeDefinition<SarParams> = {
  id: "sar",
  title: "sar system activity",
  description:
    "Samples paging, disk, memory and CPU counters at a fixed interval. Writes nothing; run it alongside another probe to see what the kernel does meanwhile.",
  tool: {
    binary: "sar",
    packages: samePackage("sysstat"),
    installHint: "apt-get install sysstat (sar works with an interval and count without enabling the collection service).",
    // "sysstat version 12.6.1"
    version: { args: ["-V"], pattern: /sysstat version\s+(\S+)/i },
    // sadf (same package) turns sar data files into the JSON the import reads; hosts report it too.
    companions: [{ binary: "sadf", version: { args: ["-V"], pattern: /sysstat version\s+(\S+)/i } }],
  },
  // sysstat keeps daily files (sa1 from cron or a systemd timer): the host's own history.
  history: { defaultDirs: SYSSTAT_HISTORY_DIRS, isDayFile: isSaFileName, command: sadfHistoryCommand, fileDate: sadfJsonFileDate },
  importLabel: "sar text (any locale), sadf -j JSON, sadf -d CSV or sadf -p",
  role: "observer",
  // sar column names are open-ended (sysstat adds columns between releases).
  metrics: { metrics: [], also: "any" },
  paramsSchema: sarParamsSchema,
  defaults: sarDefaults,
  presets: sarPresets,
  buildCommand: buildSarCommand,
  parse: parseSar,
  splitRuns: splitSarRuns,
  extractProgress: extractSarProgress,
  requiredFreeBytes: sarRequiredFreeBytes,
  advice: sarAdvice,
  view: sarView,
  headline: sarHeadline,
};
