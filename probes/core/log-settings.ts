// LOG_FORMAT and LOG_LEVEL, read the same way by the app (lib/log.ts) and the agent
// (probes/agent/logger.ts): both are configured by an operator with the same two variables.

export const LOG_FORMATS = ["text", "json"] as const;
export const LOG_LEVELS = ["debug", "info", "warn", "error"] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];
export type LogLevel = (typeof LOG_LEVELS)[number];

export interface LogSettings {
  format: LogFormat;
  level: LogLevel;
}

/** A variable's value when set and not blank (compose passes unset variables as ""). */
const given = (raw: string | undefined) => (raw?.trim() ? raw.trim() : undefined);

/** The log settings of the environment, or an error naming the variable that is wrong. */
export function logSettingsFrom(env: Record<string, string | undefined>): LogSettings | { error: string } {
  const format = (given(env.LOG_FORMAT) ?? "text").toLowerCase();
  const level = (given(env.LOG_LEVEL) ?? "info").toLowerCase();
  if (!(LOG_FORMATS as readonly string[]).includes(format)) return { error: `LOG_FORMAT must be one of ${LOG_FORMATS.join(", ")}, got "${env.LOG_FORMAT}"` };
  if (!(LOG_LEVELS as readonly string[]).includes(level)) return { error: `LOG_LEVEL must be one of ${LOG_LEVELS.join(", ")}, got "${env.LOG_LEVEL}"` };
  return { format: format as LogFormat, level: level as LogLevel };
}

/** Whether a line at `level` is written when the threshold is `threshold`. */
export function levelEnabled(level: LogLevel, threshold: LogLevel): boolean {
  return LOG_LEVELS.indexOf(level) >= LOG_LEVELS.indexOf(threshold);
}
