// When a schedule is due, and whether a moment is inside its quiet hours: pure, so the firing
// (lib/server/schedules/fire-due-schedules.ts), the API's validation and the pages agree.
import { CronExpressionParser } from "cron-parser";

export interface ScheduleTiming {
  cron: string | null;
  intervalMinutes: number | null;
  timezone: string;
  /** Interval grids are anchored here, so firings stay on createdAt + k × interval. */
  createdAt: Date;
}

export interface QuietHours {
  timezone: string;
  quietStart: string | null;
  quietEnd: string | null;
}

/** Why a cron expression is not accepted, or null. Five fields only: a sixth (seconds) would fire far more often than anyone means. */
export function cronError(expr: string, timezone = "UTC"): string | null {
  const fields = expr.trim().split(/\s+/);
  if (fields.length !== 5) {
    return fields.length === 6
      ? "Use five fields (minute hour day-of-month month day-of-week); seconds are not supported."
      : `Use five fields (minute hour day-of-month month day-of-week), e.g. "0 3 * * *"; got ${fields.length}.`;
  }
  try {
    CronExpressionParser.parse(expr, { tz: timezone, strict: false }).next();
    return null;
  } catch (e) {
    return `Not a valid cron expression: ${e instanceof Error ? e.message : String(e)}`;
  }
}

/** Whether `tz` is an IANA time zone this runtime knows (Intl throws a RangeError otherwise). */
export function isValidTimezone(tz: string): boolean {
  if (!tz || tz.length > 64) return false;
  try {
    new Intl.DateTimeFormat("en-GB", { timeZone: tz });
    return true;
  } catch {
    return false;
  }
}

/** The first due time strictly after `after`. */
export function nextDueAfter(s: ScheduleTiming, after: Date): Date {
  if (s.cron) {
    return CronExpressionParser.parse(s.cron, { currentDate: after, tz: s.timezone }).next().toDate();
  }
  const period = intervalMs(s);
  const anchor = s.createdAt.getTime();
  if (after.getTime() < anchor) return new Date(anchor + period);
  const k = Math.floor((after.getTime() - anchor) / period) + 1;
  return new Date(anchor + k * period);
}

/**
 * The latest due time at or before `at` (the one a late firing records: after an outage only the
 * latest missed time fires), or null when none has come yet.
 */
export function latestDueAtOrBefore(s: ScheduleTiming, at: Date): Date | null {
  if (s.cron) {
    // prev() is strictly before its current date: start 1 ms later so `at` itself counts.
    const it = CronExpressionParser.parse(s.cron, { currentDate: new Date(at.getTime() + 1), tz: s.timezone });
    try {
      return it.prev().toDate();
    } catch {
      return null;
    }
  }
  const period = intervalMs(s);
  const anchor = s.createdAt.getTime();
  const k = Math.floor((at.getTime() - anchor) / period);
  return k >= 1 ? new Date(anchor + k * period) : null;
}

function intervalMs(s: ScheduleTiming): number {
  if (!s.intervalMinutes || s.intervalMinutes < 1) throw new Error("A schedule needs a cron expression or an interval of at least a minute.");
  return s.intervalMinutes * 60_000;
}

/** A due time moved later by a random 0..jitterSeconds (whole seconds), so a fleet's runs spread out. */
export function withJitter(due: Date, jitterSeconds: number, random: () => number = Math.random): Date {
  if (jitterSeconds <= 0) return due;
  return new Date(due.getTime() + Math.floor(random() * (jitterSeconds + 1)) * 1000);
}

const minutesOf = (hhmm: string) => {
  const m = /^(\d{2}):(\d{2})$/.exec(hhmm);
  if (!m) throw new Error(`Not an HH:MM time: ${hhmm}`);
  return Number(m[1]) * 60 + Number(m[2]);
};

/** The wall-clock minute of the day of `at` in `timezone` (0..1439). */
export function minuteOfDay(at: Date, timezone: string): number {
  const parts = new Intl.DateTimeFormat("en-GB", { timeZone: timezone, hour: "2-digit", minute: "2-digit", hourCycle: "h23" }).formatToParts(at);
  const get = (type: string) => Number(parts.find((p) => p.type === type)?.value ?? 0);
  return get("hour") * 60 + get("minute");
}

/** Whether `at` falls in [quietStart, quietEnd) on the wall clock of the schedule's time zone; a window may wrap midnight (22:00–06:00). */
export function inQuietHours(q: QuietHours, at: Date): boolean {
  if (!q.quietStart || !q.quietEnd) return false;
  const start = minutesOf(q.quietStart);
  const end = minutesOf(q.quietEnd);
  if (start === end) return false;
  const m = minuteOfDay(at, q.timezone);
  return start < end ? m >= start && m < end : m >= start || m < end;
}

function everyWords(minutes: number): string {
  if (minutes % (24 * 60) === 0) return minutes === 1440 ? "every day" : `every ${minutes / 1440} days`;
  if (minutes % 60 === 0) return minutes === 60 ? "every hour" : `every ${minutes / 60} hours`;
  return minutes === 1 ? "every minute" : `every ${minutes} minutes`;
}

/** The schedule in words: "every 15 minutes", "cron 0 3 * * * (Europe/Berlin)", plus quiet hours and jitter. */
export function describeSchedule(s: Omit<ScheduleTiming, "createdAt"> & Partial<QuietHours> & { jitterSeconds?: number }): string {
  const parts = [s.cron ? `cron ${s.cron.trim()} (${s.timezone})` : everyWords(s.intervalMinutes ?? 0)];
  if (s.quietStart && s.quietEnd) parts.push(`not ${s.quietStart}–${s.quietEnd}${s.cron ? "" : ` (${s.timezone})`}`);
  if (s.jitterSeconds && s.jitterSeconds > 0) parts.push(`up to ${s.jitterSeconds} s late (jitter)`);
  return parts.join(", ");
}
