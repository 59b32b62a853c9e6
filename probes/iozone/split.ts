// Where one iozone report ends and the next begins in a paste: each report opens with iozone's
// banner ("Iozone: Performance Test of File I/O") and names its own command ("Command line
// used: …"), which stands in for a prompt's command line when the paste has none.
import { runsFrom, toolCommand, type NormalisedPaste, type PastedRun } from "../core/paste";

const BANNER = /^\s*Iozone: Performance Test of File I\/O/;
const COMMAND_USED = /^\s*Command line used:\s*(.+)$/;

export function splitIozoneRuns(paste: NormalisedPaste): PastedRun[] {
  const starts = paste.lines.flatMap((l, i) => (l.kind === "output" && BANNER.test(l.text) ? [i] : []));
  if (starts.length < 2) return [];
  return runsFrom(paste, starts, ["iozone"]).map((run) => {
    if (run.command) return run;
    const used = run.lines.map((l) => COMMAND_USED.exec(l.text)?.[1]).find((c) => c !== undefined);
    return { ...run, command: used ? (toolCommand(used.trim()) ?? { tool: "iozone", text: used.trim() }) : null };
  });
}
