// Where one fio run ends and the next begins in a paste: at fio command lines when the paste
// shows them; else each JSON document (fio prints one per run, "{" and "}" in the first column);
// else each text report (a job header line after a finished report's "Run status group").
import { runsAtCommands, runsFrom, runText, timeAfter, type NormalisedPaste, type PastedRun } from "../core/paste";

// "seq-write: (g=0): rw=write, bs=(R) 1024KiB-1024KiB, …" (fio 2.x and 3.x alike).
const JOB_HEADER = /^[^\s:]+: \(g=\d+\): rw=/;
const RUN_STATUS = /^Run status group \d+ /;
// What only fio's output holds: a JSON report's jobs, a text report's job header, fio's own errors.
const FIO_OUTPUT = /"jobs"\s*:|\(g=\d+\): rw=|^fio: /m;

export function splitFioRuns(paste: NormalisedPaste): PastedRun[] {
  // A command echoed without its output (a typescript's typed-ahead input) is no run.
  const byCommand = runsAtCommands(paste, ["fio"]).filter((r) => FIO_OUTPUT.test(runText(r)));
  if (byCommand.length >= 2) return byCommand;

  const { lines } = paste;
  const documents: PastedRun[] = [];
  let start = 0;
  let open = -1;
  let command = -1;
  for (let i = 0; i < lines.length; i++) {
    const l = lines[i]!;
    if (l.kind === "command") {
      if (l.command?.tool === "fio") command = i;
      continue;
    }
    if (l.kind !== "output") continue;
    if (open < 0 && l.text === "{") open = i;
    else if (open >= 0 && l.text === "}") {
      const from = command >= start ? command : open;
      const after = timeAfter(lines, i + 1);
      documents.push({ lines: lines.slice(from, after.until), command: command >= start ? (lines[command]!.command ?? null) : null, realSeconds: after.realSeconds });
      start = after.until;
      open = -1;
      command = -1;
      i = after.until - 1;
    }
  }
  if (documents.length >= 2) return documents;

  const starts: number[] = [];
  let reported = true;
  lines.forEach((l, i) => {
    if (l.kind !== "output") return;
    if (JOB_HEADER.test(l.text) && reported) {
      starts.push(i);
      reported = false;
    } else if (RUN_STATUS.test(l.text)) reported = true;
  });
  return starts.length >= 2 ? runsFrom(paste, starts, ["fio"]) : [];
}
