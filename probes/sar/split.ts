// Several sar reports in one paste are told apart only by their command lines (sar …, sadf …):
// one report may itself hold several headers (a restart, `sar -A`'s sections), so a header
// alone is no boundary.
import { runsAtCommands, runText, type NormalisedPaste, type PastedRun } from "../core/paste";

// What a report begins with: sar's header line, sadf -d's "# hostname;…", sadf -j's "{", a row's time.
const SAR_OUTPUT = /^(?:\S+\s+\d+\.\d+\S*\s+\(|# hostname;|\s*\{|\d\d:\d\d:\d\d)/m;

export function splitSarRuns(paste: NormalisedPaste): PastedRun[] {
  // A command echoed without its output (a typescript's typed-ahead input) is no run.
  const runs = runsAtCommands(paste, ["sar", "sadf"]).filter((r) => SAR_OUTPUT.test(runText(r)));
  return runs.length >= 2 ? runs : [];
}
