// Secrets read without putting them on a command line (where shell history, `ps` and npm's own
// echo of the command show them): typed at a terminal without echo, or piped on stdin.

/** The first line of stdin (a piped token or password), without its line ending. */
export async function readStdinLine(stdin: NodeJS.ReadableStream = process.stdin): Promise<string> {
  let text = "";
  for await (const chunk of stdin) {
    text += typeof chunk === "string" ? chunk : (chunk as Buffer).toString("utf8");
    if (text.includes("\n")) break;
  }
  return text.split(/\r?\n/, 1)[0] ?? "";
}

/**
 * Asks on stderr and reads one line from the terminal with echo off (raw mode: each key arrives
 * as typed, nothing is printed). Backspace edits; Ctrl-C and Ctrl-D give up (null).
 */
export function promptHidden(question: string): Promise<string | null> {
  const stdin = process.stdin;
  if (!stdin.isTTY) return Promise.resolve(null);
  process.stderr.write(question);
  return new Promise((resolve) => {
    let value = "";
    const done = (result: string | null) => {
      stdin.off("data", onData);
      stdin.setRawMode(false);
      stdin.pause();
      process.stderr.write("\n");
      resolve(result);
    };
    const onData = (data: Buffer) => {
      for (const ch of data.toString("utf8")) {
        if (ch === "\r" || ch === "\n") return done(value);
        if (ch === "\u0003" || ch === "\u0004") return done(null);
        if (ch === "\u007f" || ch === "\b") value = value.slice(0, -1);
        else if (ch >= " ") value += ch;
      }
    };
    stdin.setRawMode(true);
    stdin.resume();
    stdin.on("data", onData);
  });
}
