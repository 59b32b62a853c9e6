// Text from the server or an agent reaches the operator's terminal only through here. A
// compromised agent (or anyone who can name a run) could otherwise send escape sequences: OSC 52
// writes the clipboard, OSC 0 sets the window title, CSI clears the screen or moves the cursor to
// forge lines, DCS talks to the terminal itself. Everything that makes the terminal *do* something
// is removed; text stays text. Raw run output is printed as is only with `--raw`.

/* eslint-disable no-control-regex -- these patterns exist to match control characters */
// ESC followed by: a CSI (parameters, intermediates, one final byte); a string command
// (OSC ], DCS P, SOS X, PM ^, APC _) up to BEL or ST (ESC \), or to the end of the text when
// unterminated; or any single other character (ESC c resets the terminal, ESC 7/8 …). Also the
// 8-bit forms: CSI 0x9b, and the string introducers 0x90 0x98 0x9d 0x9e 0x9f up to ST 0x9c / BEL.
const SEQUENCE =
  /\x1b\[[0-?]*[ -/]*[@-~]?|\x1b[\]PX^_][\s\S]*?(?:\x07|\x1b\\|\x9c|$)|\x1b[\s\S]?|\x9b[0-?]*[ -/]*[@-~]?|[\x90\x98\x9d\x9e\x9f][\s\S]*?(?:\x07|\x1b\\|\x9c|$)/g;
/** C0 controls but \t and \n, DEL, the remaining C1 controls, and bidirectional overrides that reorder what is shown. */
const CONTROL = /[\x00-\x08\x0b-\x1f\x7f-\x9f\u202a-\u202e\u2066-\u2069]/g;

/**
 * What may be printed of `text`: no escape sequence, no control character. A carriage return
 * that ends a line (\r\n) is dropped; a bare one (dd's progress updates, or a line that would be
 * overwritten to hide what it said) becomes a newline, so nothing printed can be covered up.
 * With `oneLine`, newlines and tabs become spaces too (table cells, names, one-line messages).
 */
export function terminalText(text: string, opts: { oneLine?: boolean } = {}): string {
  let out = text.replace(SEQUENCE, "").replace(/\r\n/g, "\n").replace(/\r/g, "\n").replace(CONTROL, "");
  if (opts.oneLine) out = out.replace(/[\n\t]+/g, " ");
  return out;
}

/**
 * The same for text that arrives in pieces (a run's output, chunk by chunk): a sequence split
 * across two pieces is held back until it is complete, so that its second half cannot print as
 * text. What is held is bounded: an unterminated string command longer than 4 KiB is dropped.
 */
export class TerminalStream {
  private held = "";

  push(piece: string): string {
    const text = this.held + piece;
    this.held = "";
    let cut = openSequenceAt(text);
    // A \r at the end may be the first half of \r\n.
    if (cut === -1 && text.endsWith("\r")) cut = text.length - 1;
    if (cut !== -1 && text.length - cut <= 4096) {
      this.held = text.slice(cut);
      return terminalText(text.slice(0, cut));
    }
    return terminalText(text);
  }

  /** What is still held: a lone \r prints as a newline, an unterminated sequence not at all. */
  end(): string {
    const rest = this.held === "\r" ? "\n" : "";
    this.held = "";
    return rest;
  }
}

/* eslint-enable no-control-regex */

/** Where an escape sequence starts that the text ends in the middle of, or -1. */
/* eslint-disable no-control-regex -- as above */
function openSequenceAt(text: string): number {
  const esc = Math.max(text.lastIndexOf("\x1b"), text.lastIndexOf("\x9b"), text.lastIndexOf("\x9d"), text.lastIndexOf("\x90"));
  if (esc === -1) return -1;
  const rest = text.slice(esc);
  if (rest === "\x1b" || rest === "\x9b") return esc;
  if (/^(?:\x1b\[|\x9b)[0-?]*[ -/]*$/.test(rest)) return esc;
  if (/^(?:\x1b[\]PX^_]|[\x90\x9d])/.test(rest) && !/(?:\x07|\x1b\\|\x9c)/.test(rest.slice(1))) return esc;
  // An ESC \ (ST) that ended a string: the string's start is further back, and complete.
  return -1;
}
/* eslint-enable no-control-regex */

/**
 * One JSON line for --json: JSON.stringify escapes C0 controls but leaves DEL and C1 (an 8-bit
 * CSI is U+009B) raw; they are escaped here too, so the line is the same JSON and inert on a terminal.
 */
export function jsonLine(value: unknown, indent?: number): string {
  return `${JSON.stringify(value, null, indent).replace(/[\x7f-\x9f\u202a-\u202e\u2066-\u2069]/g, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`)}\n`;
}
