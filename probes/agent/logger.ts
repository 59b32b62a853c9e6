export interface Logger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

/**
 * One line per event on stderr ("2026-11-21T12:00:00.000Z warn …"): journald and `2>>file`
 * both keep it readable. --quiet drops info lines, never warnings or errors.
 */
export function createLogger(opts: { quiet?: boolean; write?: (line: string) => void } = {}): Logger {
  const write = opts.write ?? ((line: string) => process.stderr.write(line));
  const emit = (level: string, message: string) =>
    write(`${new Date().toISOString()} ${level} ${message.replace(/\s*\n\s*/g, " ")}\n`);
  return {
    info: (m) => {
      if (!opts.quiet) emit("info", m);
    },
    warn: (m) => emit("warn", m),
    error: (m) => emit("error", m),
  };
}

/** For tests and library use: keeps the lines instead of printing them. */
export function memoryLogger(): Logger & { lines: string[] } {
  const lines: string[] = [];
  return {
    lines,
    info: (m) => lines.push(`info ${m}`),
    warn: (m) => lines.push(`warn ${m}`),
    error: (m) => lines.push(`error ${m}`),
  };
}
