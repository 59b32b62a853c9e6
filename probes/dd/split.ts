// Where one dd run ends and the next begins in a paste (a shell session, a notes file): dd's
// summary line closes a run, and the `time` report after it still belongs to it.
import { timeAfter, type NormalisedPaste, type PasteCommand, type PastedRun } from "../core/paste";
import { RECORDS_RE, transfersIn } from "./summary";

/** The index of the next non-blank output line after `i`, or -1. */
function nextOutput(lines: NormalisedPaste["lines"], i: number): number {
  for (let j = i + 1; j < lines.length; j++) {
    const l = lines[j]!;
    if (l.kind === "command") return -1;
    if (l.kind === "output" && l.text.trim() !== "") return j;
  }
  return -1;
}

/**
 * Each run is its command line (when the paste shows one) up to its summary and `time` report.
 * A transfer line is a summary after the records lines, or alone (a grep'd notes file); a
 * status=progress redraw (text overwritten by \r, or followed by the records lines) is not.
 * Output between runs that has no summary (a dd that failed before the next one) is in no run.
 */
export function splitDdRuns(paste: NormalisedPaste): PastedRun[] {
  const { lines } = paste;
  const runs: PastedRun[] = [];
  let start = 0;
  let command = -1;
  let records = false;
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i]!;
    if (l.kind === "command") {
      if (l.command?.tool === "dd") {
        command = i;
        records = false;
      }
      continue;
    }
    if (l.kind !== "output") continue;
    if (RECORDS_RE.test(l.text)) {
      records = true;
      continue;
    }
    if (transfersIn(l.text).length === 0) continue;
    if (!records) {
      if (l.overwritten) continue;
      const next = nextOutput(lines, i);
      if (next >= 0 && RECORDS_RE.test(lines[next]!.text)) continue;
    }
    const from = command >= start ? command : start;
    const after = timeAfter(lines, i + 1);
    const own = lines.slice(from, after.until);
    // zsh prints the command again in its time report: a run without a prompt line takes it from there.
    const cmd: PasteCommand | null =
      (command >= start ? lines[command]!.command : undefined) ?? own.find((x) => x.kind === "time" && x.command)?.command ?? null;
    runs.push({ lines: own, command: cmd, realSeconds: after.realSeconds });
    start = after.until;
    command = -1;
    records = false;
    i = after.until - 1;
  }
  return runs;
}
