// The app's one logger: LOG_FORMAT=json writes one pino JSON object per line on stdout (for a log
// collector); text (the default) keeps the plain lines the app has always printed. LOG_LEVEL
// drops what is below it in both. Request errors carry the request id scripts/serve.ts assigns.
import { format } from "node:util";
import pino from "pino";
import { levelEnabled, logSettingsFrom, type LogLevel, type LogSettings } from "../probes/core/log-settings";

/** Fields beside the message: plain values; an `err` is written with its stack. */
export type LogFields = Record<string, unknown> & { err?: unknown };

export interface AppLog {
  debug(msg: string, fields?: LogFields): void;
  info(msg: string, fields?: LogFields): void;
  warn(msg: string, fields?: LogFields): void;
  error(msg: string, fields?: LogFields): void;
}

/**
 * A logger writing to `out` (stdout by default) as the settings say. JSON lines are written
 * synchronously through pino's own destination, never a transport (a worker thread), so a line
 * is out before a crash and the code bundles into one file like the rest.
 */
export function createAppLog(settings: LogSettings, out?: { write(line: string): void }): AppLog {
  if (settings.format === "json") {
    const p = pino(
      {
        level: settings.level,
        base: { pid: process.pid },
        timestamp: pino.stdTimeFunctions.isoTime,
        formatters: { level: (label) => ({ level: label }) },
      },
      out ?? pino.destination({ dest: 1, sync: true }),
    );
    const at = (level: LogLevel) => (msg: string, fields?: LogFields) => (fields ? p[level](fields, msg) : p[level](msg));
    return { debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error") };
  }
  const at = (level: LogLevel) => (msg: string, fields?: LogFields) => {
    if (!levelEnabled(level, settings.level)) return;
    const { err, ...rest } = fields ?? {};
    const extra = Object.entries(rest)
      .filter(([, v]) => v !== undefined)
      .map(([k, v]) => ` ${k}=${typeof v === "string" ? v : JSON.stringify(v)}`)
      .join("");
    const why = err === undefined ? "" : `\n${err instanceof Error ? (err.stack ?? err.message) : String(err)}`;
    // As before: warnings and errors on stderr, the rest on stdout.
    (out ?? (levelEnabled(level, "warn") ? process.stderr : process.stdout)).write(`[probebook] ${level === "info" ? "" : `${level}: `}${msg}${extra}${why}\n`);
  };
  return { debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error") };
}

// One per process, on globalThis: Next bundles route code and instrumentation.ts separately.
const SLOT = Symbol.for("probebook.log");
const g = globalThis as unknown as Record<typeof SLOT, AppLog | undefined>;

/**
 * This process's logger, made from LOG_FORMAT and LOG_LEVEL on first use. A bad value is refused
 * at start-up by scripts/serve.ts; a script that reaches here with one gets text at info.
 */
export function log(): AppLog {
  if (!g[SLOT]) {
    const s = logSettingsFrom(process.env);
    g[SLOT] = createAppLog("error" in s ? { format: "text", level: "info" } : s);
  }
  return g[SLOT];
}

/**
 * With LOG_FORMAT=json, what others print through console (Next.js's own start-up and error
 * lines, libraries' warnings) becomes JSON lines too, at the console method's level, so a log
 * collector never meets a line it cannot parse. pino itself writes to the file descriptor, not
 * through console, so nothing loops. Called once by scripts/serve.ts.
 */
export function consoleToLog(env: Record<string, string | undefined> = process.env, target: AppLog = log()): void {
  const s = logSettingsFrom(env);
  if ("error" in s || s.format !== "json") return;
  const to =
    (level: LogLevel) =>
    (...args: unknown[]) => {
      const err = args.find((a) => a instanceof Error);
      const rest = args.filter((a) => a !== err);
      target[level](rest.length > 0 ? format(...rest) : err instanceof Error ? err.message : "", err ? { err } : undefined);
    };
  console.debug = to("debug");
  console.log = to("info");
  console.info = to("info");
  console.warn = to("warn");
  console.error = to("error");
}
