// What a person pastes is rarely the tool's output alone: a terminal session with prompts and
// colour, the command line, `time`'s report, mail quoting, Windows line ends, several runs in a
// row. normalisePaste turns such text into lines of output the parsers read, and marks the
// lines that are not output (prompts, command lines, `time` reports) so that each probe's
// splitter (probes/<tool>/split.ts) can cut the paste into runs. Total: any string in, no throws.
import { stripAnsi } from "./text";

/** The tools whose command lines mark where a run begins. */
export const PASTE_TOOLS = ["dd", "sar", "sadf", "fio", "iozone"] as const;
export type PasteTool = (typeof PASTE_TOOLS)[number];

export interface PasteCommand {
  /** Which tool the command runs, or null for another command (cd, ls, sync, echo …). */
  tool: PasteTool | null;
  /** The command as typed, without the prompt, `time` and `sudo`: "dd if=/dev/zero of=x bs=1M". */
  text: string;
}

/** `time`'s report: bash's real/user/sys block, zsh's one line, GNU time's "elapsed". */
export interface PasteTime {
  /** Wall-clock seconds, when the report says them. */
  realSeconds: number | null;
}

export interface PasteLine {
  /** The line as the tool printed it: no quoting, no colour, no prompt, no overwritten progress. */
  text: string;
  /** Index of the line in the paste as given (split on \n), so a run's own text can be cut out. */
  source: number;
  kind: "output" | "command" | "time";
  /** Text was overwritten with \r on this line (a progress redraw): the terminal showed the last part only. */
  overwritten: boolean;
  command?: PasteCommand;
  time?: PasteTime;
}

export interface NormalisedPaste {
  lines: PasteLine[];
  /** The output lines alone, joined with \n: what a parser reads. */
  text: string;
  /** The paste as given, split on \n (with any \r kept), for cutting out a run's original text. */
  sourceLines: string[];
}

// A prompt in front of a command: "user@host:~/dir$ ", "[root@h ~]# ", "host:~ user$ ",
// "(venv) user@host:~$ ", "PS C:\> " is not Linux and not handled.
const USER_HOST_PROMPT = /^(?:\([^)\s]{1,40}\)\s)?[\w.-]{1,64}@[\w.-]{1,253}(?::[^\s$#%]{0,200})?\s?[$#%>]\s?/;
const BRACKET_PROMPT = /^(?:\([^)\s]{1,40}\)\s)?\[[^\]\r\n]{1,120}\][$#%]\s?/;
const MAC_PROMPT = /^[A-Za-z][\w.-]{0,63}:[~/]\S{0,200} [\w.-]{1,64}[$#%]\s/;
// A bare "$ " or "% " (or "bash-5.2# ") starts a command; a bare "# " only before a known command,
// because sadf -d's header ("# hostname;interval;…") and config comments begin with it too.
const BARE_PROMPT = /^(?:(?:ba|z|k)?sh(?:-\d[\d.]*)?[$%#]|[$%])\s/;
const SHELL_PROMPT_HASH = /^#\s/;
const KNOWN_COMMANDS = new Set<string>([
  ...PASTE_TOOLS,
  "time", "sudo", "sync", "echo", "cd", "ls", "rm", "cat", "export", "sysctl", "mount", "umount", "uname", "df", "free",
]);

// `time` and `sudo` (with its options) in front of a tool; a path to the binary is allowed.
const PREFIX = /^(?:(?:sudo(?:\s+-\S+)*|time(?:\s+-p)?|\/usr\/bin\/time(?:\s+-\S+)*|nice(?:\s+-n\s*-?\d+)?|ionice(?:\s+-c\s*\d)?(?:\s+-n\s*\d)?|env(?:\s+\w+=\S*)*|LC_ALL=\S*|LANG=\S*|LANGUAGE=\S*)\s+)+/;
const TOOL_WORD = /^(?:\S*\/)?(dd|sar|sadf|fio|iozone)(?=\s|$)/;
// What the rest of a tool's command looks like, so that a sentence in notes ("dd was slow") is no command.
const TOOL_ARGS: Record<PasteTool, RegExp> = {
  dd: /\b(?:if|of|bs|count|ibs|obs|conv|oflag|iflag|status|seek|skip)=/,
  sar: /^\s*(?:$|-|\d)/,
  sadf: /^\s*(?:$|-)/,
  fio: /^\s*(?:$|-|\S+\.fio\b)/,
  iozone: /^\s*(?:$|-)/,
};

/** "dd if=… of=…" after any prompt, `time` and `sudo`, or null. */
export function toolCommand(line: string): PasteCommand | null {
  const withoutPrefix = line.replace(PREFIX, "");
  const tool = TOOL_WORD.exec(withoutPrefix);
  if (!tool) return null;
  const name = tool[1] as PasteTool;
  const rest = withoutPrefix.slice(tool[0].length);
  if (!TOOL_ARGS[name].test(rest)) return null;
  return { tool: name, text: `${name}${rest}`.trim() };
}

/** The prompt at the start of a line and the command after it, or null when the line has none. */
function promptedCommand(line: string): PasteCommand | null {
  for (const re of [USER_HOST_PROMPT, BRACKET_PROMPT, MAC_PROMPT, BARE_PROMPT]) {
    const m = re.exec(line);
    if (!m) continue;
    const rest = line.slice(m[0].length).trim();
    return toolCommand(rest) ?? { tool: null, text: rest };
  }
  const hash = SHELL_PROMPT_HASH.exec(line);
  if (hash) {
    const rest = line.slice(hash[0].length).trim();
    const word = /^\S+/.exec(rest.replace(PREFIX, ""))?.[0] ?? "";
    if (KNOWN_COMMANDS.has(word.replace(/^.*\//, ""))) return toolCommand(rest) ?? { tool: null, text: rest };
  }
  return null;
}

// bash: "real\t0m1.234s" (or `time -p`'s "real 1.23"), then user and sys.
const BASH_TIME = /^(real|user|sys)\s+(?:(\d+)m)?(\d+(?:[.,]\d+)?)s?$/;
// zsh: "dd if=… of=…  0.00s user 0.07s system 39% cpu 0.180 total" (the command leads the line).
const ZSH_TIME = /\s(\d+(?:[.,]\d+)?)s user (\d+(?:[.,]\d+)?)s system \d+% cpu (?:(\d+):)?(\d+(?:[.,]\d+)?) total$/;
// GNU time: "0.00user 0.07system 0:00.18elapsed 39%CPU (0avgtext+0avgdata 2048maxresident)k".
const GNU_TIME = /^\d+(?:\.\d+)?user \d+(?:\.\d+)?system (?:(\d+):)?(\d+):(\d+(?:\.\d+)?)elapsed \d+%CPU/;
const GNU_TIME_2 = /^\d+inputs\+\d+outputs \(\d+major\+\d+minor\)pagefaults \d+swaps$/;

const num = (s: string | undefined) => (s ? Number(s.replace(",", ".")) : 0);

function timeReport(line: string): { time: PasteTime; command?: PasteCommand } | null {
  const bash = BASH_TIME.exec(line);
  if (bash) return { time: { realSeconds: bash[1] === "real" ? num(bash[2]) * 60 + num(bash[3]) : null } };
  const gnu = GNU_TIME.exec(line);
  if (gnu) return { time: { realSeconds: num(gnu[1]) * 3600 + num(gnu[2]) * 60 + num(gnu[3]) } };
  if (GNU_TIME_2.test(line)) return { time: { realSeconds: null } };
  const zsh = ZSH_TIME.exec(line);
  if (zsh) {
    const command = toolCommand(line.slice(0, zsh.index).trim());
    return { time: { realSeconds: num(zsh[3]) * 60 + num(zsh[4]) }, ...(command ? { command } : {}) };
  }
  return null;
}

// Mail and forum quoting: "> ", "> > ", ">> ".
const QUOTING = /^(?:[ \t]?>[ \t]?)+/;

/** What the terminal showed of a line that \r redrew: its last non-empty part. */
function visible(line: string): { text: string; overwritten: boolean } {
  if (!line.includes("\r")) return { text: line, overwritten: false };
  const parts = line.split("\r");
  let last = -1;
  for (let i = parts.length - 1; i >= 0; i--) {
    if ((parts[i] ?? "").trim() !== "") {
      last = i;
      break;
    }
  }
  if (last < 0) return { text: "", overwritten: false };
  const overwritten = parts.slice(0, last).some((p) => p.trim() !== "");
  return { text: parts[last] ?? "", overwritten };
}

/**
 * Mail quoting is taken off only when the paste is quoted as a whole (most non-blank lines), so
 * that a tool's own line that happens to start with ">" stays as it is.
 */
function quotedAsAWhole(lines: readonly string[]): boolean {
  let quoted = 0;
  let other = 0;
  for (const l of lines) {
    if (l.trim() === "") continue;
    if (QUOTING.test(l) && /^\s?>/.test(l)) quoted++;
    else other++;
  }
  return quoted > 0 && quoted >= other * 4;
}

export function normalisePaste(paste: string): NormalisedPaste {
  const input = typeof paste === "string" ? paste : "";
  const sourceLines = input.split("\n");
  // Colour and terminal modes first (bracketed paste, titles): they hide prompts.
  const plain = sourceLines.map((l) => stripAnsi(l.endsWith("\r") ? l.slice(0, -1) : l));
  const unquote = quotedAsAWhole(plain);
  const lines: PasteLine[] = [];
  plain.forEach((raw, source) => {
    const { text: shown, overwritten } = visible(raw);
    const text = unquote ? shown.replace(QUOTING, "") : shown;
    const prompted = promptedCommand(text);
    if (prompted) {
      // zsh prints its time report after the command's own output, but a prompt line is never one.
      lines.push({ text, source, kind: "command", overwritten, command: prompted });
      return;
    }
    const timed = timeReport(text.trim());
    if (timed) {
      lines.push({ text, source, kind: "time", overwritten, time: timed.time, ...(timed.command ? { command: timed.command } : {}) });
      return;
    }
    const bare = toolCommand(text.trim());
    if (bare) {
      lines.push({ text, source, kind: "command", overwritten, command: bare });
      return;
    }
    lines.push({ text, source, kind: "output", overwritten });
  });
  return { lines, text: lines.filter((l) => l.kind === "output").map((l) => l.text).join("\n"), sourceLines };
}

/** One run cut out of a paste: the output lines a parser reads and what the paste said about it. */
export interface PastedRun {
  lines: PasteLine[];
  /** The command that started it, when the paste shows one. */
  command: PasteCommand | null;
  /** `time`'s wall-clock seconds for it, when the paste shows them. */
  realSeconds: number | null;
}

/** The output text of a run, as its parser reads it. */
export function runText(run: PastedRun): string {
  return run.lines.filter((l) => l.kind === "output").map((l) => l.text).join("\n");
}

/** The run's lines as they were pasted (prompt, colour and quoting included), for its own log. */
export function runSource(paste: NormalisedPaste, run: PastedRun): string {
  const first = run.lines[0]?.source;
  const last = run.lines[run.lines.length - 1]?.source;
  if (first === undefined || last === undefined) return "";
  return paste.sourceLines.slice(first, last + 1).join("\n");
}

/** The `time` report lines that follow `from` until the next output or command line. */
export function timeAfter(lines: readonly PasteLine[], from: number): { until: number; realSeconds: number | null } {
  let i = from;
  let realSeconds: number | null = null;
  while (i < lines.length) {
    const l = lines[i]!;
    if (l.kind === "time") {
      realSeconds ??= l.time?.realSeconds ?? null;
      i++;
    } else if (l.kind === "output" && l.text.trim() === "") i++;
    else break;
  }
  // Trailing blank lines without a report belong to nobody.
  while (i > from && lines[i - 1]!.kind === "output" && lines[i - 1]!.text.trim() === "") i--;
  return { until: i, realSeconds };
}

/**
 * Cuts a paste into runs at the command lines of `tools`: each run is a command line and what
 * follows it up to the next command (of any program). Output before the first such command
 * belongs to no run. Used by the splitters whose tools print no clear end of their own.
 */
export function runsAtCommands(paste: NormalisedPaste, tools: readonly PasteTool[]): PastedRun[] {
  const runs: PastedRun[] = [];
  let current: PastedRun | null = null;
  for (const line of paste.lines) {
    if (line.kind === "command") {
      const tool = line.command?.tool;
      current = tool && tools.includes(tool) ? { lines: [line], command: line.command ?? null, realSeconds: null } : null;
      if (current) runs.push(current);
      continue;
    }
    if (!current) continue;
    current.lines.push(line);
    if (line.kind === "time") current.realSeconds ??= line.time?.realSeconds ?? null;
  }
  return runs;
}

/**
 * Runs spanning from each start to the next (the last to the paste's end), a start being pulled
 * back onto the tool's command line just before it when the paste shows one. For tools whose
 * report has a clear first line (iozone's banner, a fio job header after a finished report).
 */
export function runsFrom(paste: NormalisedPaste, starts: readonly number[], tools: readonly PasteTool[]): PastedRun[] {
  const { lines } = paste;
  const from = starts.map((s, k) => {
    const floor = k > 0 ? starts[k - 1]! + 1 : 0;
    for (let i = s - 1; i >= floor; i--) {
      const l = lines[i]!;
      if (l.kind === "command") return l.command?.tool && tools.includes(l.command.tool) ? i : s;
      if (l.kind === "output" && l.text.trim() !== "") return s;
    }
    return s;
  });
  return from.map((s, k) => {
    const own = lines.slice(s, k + 1 < from.length ? from[k + 1] : lines.length);
    const command = own.find((l) => l.kind === "command" && l.command?.tool && tools.includes(l.command.tool))?.command ?? null;
    const realSeconds = own.find((l) => l.kind === "time" && l.time?.realSeconds !== null)?.time?.realSeconds ?? null;
    return { lines: own, command, realSeconds };
  });
}
