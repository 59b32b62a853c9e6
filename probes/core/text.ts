// Small text helpers shared by the parsers. All are total functions: any string in, no throws.

/** Splits on \n, \r\n and lone \r (tools redraw progress lines with carriage returns). */
export function splitLines(text: string): string[] {
  return text.split(/\r\n|\r|\n/);
}

/** Expands tabs to 8-column stops so that positions can be compared with space-aligned rows. */
export function expandTabs(line: string): string {
  if (!line.includes("\t")) return line;
  let out = "";
  for (const ch of line) {
    if (ch === "\t") out += " ".repeat(8 - (out.length % 8));
    else out += ch;
  }
  return out;
}

export interface PositionedToken {
  text: string;
  start: number;
  /** Index one past the last character: right-aligned columns line up on this. */
  end: number;
}

export function tokensWithPositions(line: string): PositionedToken[] {
  const tokens: PositionedToken[] = [];
  const re = /\S+/g;
  let m: RegExpExecArray | null;
  while ((m = re.exec(line)) !== null) {
    tokens.push({ text: m[0], start: m.index, end: m.index + m[0].length });
  }
  return tokens;
}

/** Keeps messages short when they quote untrusted output. */
export function clip(text: string, max = 200): string {
  const oneLine = text.replace(/\s+/g, " ").trim();
  return oneLine.length > max ? `${oneLine.slice(0, max - 1)}…` : oneLine;
}

/** Renders a byte count the way a person reads it, e.g. "4.0 GiB". */
export function formatBytes(bytes: number): string {
  const units = ["B", "KiB", "MiB", "GiB", "TiB", "PiB"];
  let value = bytes;
  let i = 0;
  while (Math.abs(value) >= 1024 && i < units.length - 1) {
    value /= 1024;
    i++;
  }
  return i === 0 ? `${Math.round(value)} B` : `${value.toFixed(1)} ${units[i]}`;
}

const twoDecimals = new Intl.NumberFormat("en-US", { maximumFractionDigits: 2, minimumFractionDigits: 0 });

/** A size given in KiB with a binary unit: 4 → "4 KiB", 65536 → "64 MiB", 4194304 → "4 GiB". */
export function formatKiB(kib: number): string {
  const units = ["KiB", "MiB", "GiB", "TiB"];
  let v = kib;
  let i = 0;
  while (v >= 1024 && i < units.length - 1 && v % 1024 === 0) {
    v /= 1024;
    i++;
  }
  return `${twoDecimals.format(v)} ${units[i]}`;
}

export const KiB = 1024;
export const MiB = 1024 * 1024;

/* eslint-disable no-control-regex -- these patterns exist to match control characters */
const ANSI_SEQUENCE = /\x1b\[[0-9;?]*[A-Za-z]|\x1b\][^\x07\x1b]*(?:\x07|\x1b\\)/g;
// A live output can end inside a sequence ("0.00\x1b["): the unfinished tail goes too.
const ANSI_UNFINISHED = /\x1b(?:\[[0-9;?]*|\][^\x07\x1b]*)?$/;
const ESC = /\x1b/g;
/* eslint-enable no-control-regex */

/**
 * Removes terminal escape sequences. Runs under a pseudo-terminal can carry them (sysstat colours
 * its output on a tty unless S_COLORS=never), and they would split numbers from their columns.
 */
export function stripAnsi(text: string): string {
  return text.replace(ANSI_SEQUENCE, "").replace(ANSI_UNFINISHED, "").replace(ESC, "");
}
