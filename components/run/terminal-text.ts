// What the run's terminal writes for each piece of output: the tool's text, with the few things
// xterm would draw wrong put right. Stateful because a piece may end in the middle of a pattern.

/** fio's ETA when it cannot size a step: an unsigned wrap of tens of thousands of days. */
const WRAPPED_ETA = /\[eta (\d{3,})d:\d+h:\d+m:\d+s\]/g;

/**
 * A writer of terminal text: lone \n becomes \r\n (captured logs carry bare \n; a pty's are
 * already \r\n); dd's last progress line, which dd ends without a line break ("… 481 MB/s" then
 * its summary "1073741824 bytes …"), gets one; fio's wrapped ETA reads "eta unknown".
 */
export function terminalWriter(): (piece: string) => string {
  let prev = "";
  return (piece) => {
    if (piece === "") return "";
    const joined = prev + piece;
    const rewritten = joined
      .replace(/(?<!\r)\n/g, "\r\n")
      // A rate ("/s") run straight into a count is two lines of dd's: a rate never ends in a digit.
      .replace(/\/s(?=\d)/g, "/s\r\n")
      .replace(WRAPPED_ETA, (all, days: string) => (Number(days) >= 365 ? "[eta unknown]" : all));
    const out = rewritten.slice(prev.length);
    // Carried to the next piece: a trailing "\r" (its "\n" may come next) or "/s" (a count may).
    prev = joined.endsWith("/s") ? "/s" : joined.endsWith("\r") ? "\r" : "";
    return out;
  };
}

/** Pixels per terminal row at the terminal's font size (13 px), and its padding and border. */
const ROW_PX = 17;
const FRAME_PX = 14;
export const TERMINAL_MAX_ROWS = 22;

/** The terminal's height for the lines it holds: a few lines get a small box, more scroll at the max. */
export function terminalHeight(lines: number): number {
  return Math.min(Math.max(lines, 3), TERMINAL_MAX_ROWS) * ROW_PX + FRAME_PX;
}
