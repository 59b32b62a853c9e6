// Files a tool writes next to its terminal output (per-second logs) travel inside the run's
// output: after the process exits the agent appends each one between two frame lines, so the
// stored log stays the one source of truth and parsers, imports and re-parses read them from it.
// This module is the frame's one definition, shared by the agent (writes) and parsers (read).

/** At most this much of one file is appended; a longer file is cut and says so in its frame. */
export const COLLECTED_FILE_MAX_BYTES = 8 * 1024 * 1024;

const OPEN = "[probebook file ";
/** Text that only an appended file's frame carries: a reader that finds none can skip splitting. */
export const collectedFileMarker = OPEN;
const CLOSE = "[probebook end ";

// "[probebook file probebook_bw.1.log, 120 bytes]" or "…, first 8388608 of 9000000 bytes]".
const OPEN_RE = /^\[probebook file ([^\s,\]]+), (?:(\d+) bytes|first (\d+) of (\d+) bytes)\]$/;
const CLOSE_RE = /^\[probebook end ([^\s,\]]+)\]$/;

export interface CollectedFile {
  name: string;
  content: string;
  /** True when the agent appended only the first COLLECTED_FILE_MAX_BYTES. */
  truncated: boolean;
}

/** The framed text the agent appends for one file (CRLF line ends, as a terminal expects). */
export function frameCollectedFile(name: string, content: string, shownBytes: number, totalBytes: number): string {
  const shown = shownBytes;
  const size = shown < totalBytes ? `first ${shown} of ${totalBytes} bytes` : `${totalBytes} bytes`;
  const body = content.replace(/\r?\n/g, "\r\n");
  const end = body === "" || body.endsWith("\r\n") ? "" : "\r\n";
  return `\r\n${OPEN}${name}, ${size}]\r\n${body}${end}${CLOSE}${name}]\r\n`;
}

/** True for a file name the frame can carry (one path component, no spaces, commas or brackets). */
export function isCollectableName(name: string): boolean {
  return /^[^\s,\][/]+$/.test(name) && name !== "." && name !== "..";
}

/**
 * Splits a run's output into the tool's own output and the files appended to it. A frame that
 * was cut short (the log ends inside it) keeps what arrived. Line ends are read as \r\n, \n or \r.
 */
export function splitCollectedFiles(output: string): { output: string; files: CollectedFile[] } {
  const first = output.indexOf(OPEN);
  if (first < 0) return { output, files: [] };
  const files: CollectedFile[] = [];
  const kept: string[] = [];
  let current: { name: string; truncated: boolean; lines: string[] } | null = null;
  const lines = output.slice(first).split(/\r\n|\n|\r/);
  for (const line of lines) {
    if (current) {
      const close = CLOSE_RE.exec(line);
      if (close && close[1] === current.name) {
        files.push({ name: current.name, truncated: current.truncated, content: current.lines.join("\n") });
        current = null;
      } else current.lines.push(line);
      continue;
    }
    const open = OPEN_RE.exec(line);
    if (open) current = { name: open[1]!, truncated: open[3] !== undefined, lines: [] };
    else if (line !== "") kept.push(line);
  }
  if (current) files.push({ name: current.name, truncated: true, content: current.lines.join("\n") });
  const rest = kept.length > 0 ? `\n${kept.join("\n")}` : "";
  // Each frame starts with a line end of its own, so a tool line cut short still ends.
  const head = output.slice(0, first).replace(/\r?\n$/, "");
  return { output: head + rest, files };
}

/**
 * For a terminal view: a filter over the output as it streams in (chunks cut anywhere) that
 * replaces each appended file by its frame's first line, noting that the file is in the log.
 * Text that cannot start a frame passes at once, so progress lines ending in \r are not held.
 */
export function collapseCollectedFiles(): (chunk: string) => string {
  let carry = "";
  let inside: string | null = null;
  return (chunk) => {
    const text = carry + chunk;
    carry = "";
    let out = "";
    let pos = 0;
    while (pos < text.length) {
      const nl = text.indexOf("\n", pos);
      if (nl < 0) {
        const rest = text.slice(pos);
        if (inside !== null || OPEN.startsWith(rest) || rest.startsWith(OPEN)) carry = rest;
        else out += rest;
        break;
      }
      const line = text.slice(pos, nl + 1);
      pos = nl + 1;
      const bare = line.replace(/\r?\n$/, "");
      if (inside !== null) {
        const close = CLOSE_RE.exec(bare);
        if (close && close[1] === inside) inside = null;
        continue;
      }
      const open = OPEN_RE.exec(bare);
      if (open) {
        inside = open[1]!;
        out += `${bare.slice(0, -1)}: kept in the run's log for the parser, not shown here]\r\n`;
      } else out += line;
    }
    return out;
  };
}
