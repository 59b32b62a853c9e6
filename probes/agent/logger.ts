import pino from "pino";
import { levelEnabled, type LogSettings } from "../core/log-settings";

export interface Logger {
  info(message: string): void;
  warn(message: string): void;
  error(message: string): void;
}

/**
 * One line per event on stderr. Text (the default): "2026-11-21T12:00:00.000Z warn …", which
 * journald and `2>>file` both keep readable. LOG_FORMAT=json: one pino JSON object per line
 * (`{"level":"warn","time":"…","pid":…,"msg":"…"}`), written synchronously through pino's own
 * destination — no transport, whose worker thread would not survive the agent's one-file bundle.
 * LOG_LEVEL=warn or error drops lines below it; --quiet drops info lines, never warnings or errors.
 */
export function createLogger(opts: { quiet?: boolean; write?: (line: string) => void; settings?: LogSettings } = {}): Logger {
  const settings: LogSettings = opts.settings ?? { format: "text", level: "info" };
  const threshold = opts.quiet && !levelEnabled(settings.level, "warn") ? "warn" : settings.level;
  if (settings.format === "json") {
    const out = opts.write ? { write: opts.write } : pino.destination({ dest: 2, sync: true });
    const p = pino({ level: threshold, base: { pid: process.pid }, timestamp: pino.stdTimeFunctions.isoTime, formatters: { level: (label) => ({ level: label }) } }, out);
    return { info: (m) => p.info(m), warn: (m) => p.warn(m), error: (m) => p.error(m) };
  }
  const write = opts.write ?? ((line: string) => process.stderr.write(line));
  const emit = (level: "info" | "warn" | "error", message: string) => {
    if (levelEnabled(level, threshold)) write(`${new Date().toISOString()} ${level} ${message.replace(/\s*\n\s*/g, " ")}\n`);
  };
  return {
    info: (m) => emit("info", m),
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
