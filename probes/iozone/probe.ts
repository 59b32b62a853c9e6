import { iozoneChecks } from "./checks";
import { samePackage } from "../core/packages";
import type { ProbeDefinition } from "../core/probe";
import { iozoneHeadline } from "./headline";
import { iozoneAdvice } from "./advice";
import { buildIozoneCommand, iozoneRequiredFreeBytes } from "./command";
import { iozoneDefaults, iozoneParamsSchema, iozonePresets, type IozoneParams } from "./params";
import { iozoneMetrics } from "./metrics";
import { parseIozone } from "./parse";
import { splitIozoneRuns } from "./split";
import { extractIozoneProgress } from "./progress";
import { iozoneReference } from "./reference";
import { iozoneView } from "./view";

const FROM_SOURCE = "build it from source: download the tarball from https://www.iozone.org, run `make linux` in src/current and copy iozone onto PATH";

export const iozoneProbe: ProbeDefinition<IozoneParams> = {
  id: "iozone",
  title: "iozone file system benchmark",
  description:
    "Measures file read/write throughput over a grid of file and record sizes (auto mode) or with several processes at once (throughput mode). Writes its test file into the target directory.",
  tool: {
    binary: "iozone",
    // iozone's licence keeps it out of most repositories: Debian ships it in non-free, Ubuntu in multiverse.
    packages: samePackage("iozone3", {
      fedora: { manual: `iozone is not packaged for Fedora; ${FROM_SOURCE}` },
      rhel: { manual: `iozone is not in RHEL or EPEL; ${FROM_SOURCE}` },
      suse: { manual: 'iozone is in openSUSE\'s "benchmark" repository (https://software.opensuse.org/package/iozone): add it with zypper addrepo, then zypper install iozone' },
      arch: { manual: "iozone is in the AUR (https://aur.archlinux.org/packages/iozone): build it with makepkg or an AUR helper" },
      alpine: { manual: `iozone is not packaged for Alpine; ${FROM_SOURCE}` },
    }),
    outsideMainRepos: true,
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
  splitRuns: splitIozoneRuns,
  extractProgress: extractIozoneProgress,
  requiredFreeBytes: iozoneRequiredFreeBytes,
  advice: iozoneAdvice,
  view: iozoneView,
  reference: iozoneReference,
  headline: iozoneHeadline,
  checks: iozoneChecks,
};
