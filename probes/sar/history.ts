// What the sar probe knows about a host's own sysstat history: where the daily files live, what
// they are called, how the host's sadf turns one into JSON the sar parser reads, and the file's
// own date. The agent's probes/agent/history.ts decides when to read and what to upload.
import type { CommandSpec } from "../core/types";

/** Debian/Ubuntu write /var/log/sysstat, Red Hat/SUSE /var/log/sa. */
export const SYSSTAT_HISTORY_DIRS: readonly string[] = ["/var/log/sa", "/var/log/sysstat"];

/**
 * `saDD` (day of month, overwritten a month later) or `saYYYYMMDD` (sysstat ≥ 11.x with
 * HISTORY > 28 or `sa1 -D`). `sarDD` are text reports of the same data and are left alone.
 */
const SA_FILE = /^sa(\d{2}|\d{8})$/;

export function isSaFileName(name: string): boolean {
  return SA_FILE.test(name);
}

/**
 * The sar activities a history day carries: CPU, paging, memory (kbdirty), per-disk
 * utilisation and queue, run queue, overall I/O and swapping — what the diagnosis rules and the
 * sar charts read, without interrupts and network tables that would multiply a day's size.
 */
export const HISTORY_SAR_OPTIONS: readonly string[] = ["-u", "-B", "-d", "-p", "-r", "-q", "-b", "-W"];

/**
 * `sadf -j -t FILE -- <sar options>`: argv, no shell. -t prints the file's own local times (the
 * host's clock, what "last night at 03:00" means) instead of UTC, so one day stays one day.
 */
export function sadfHistoryCommand(file: string): CommandSpec {
  return {
    file: "sadf",
    args: ["-j", "-t", file, "--", ...HISTORY_SAR_OPTIONS],
    env: { LC_ALL: "C", S_TIME_FORMAT: "ISO", S_COLORS: "never" },
    cwd: "/",
    timeoutSec: 120,
  };
}

const FILE_DATE = /"file-date"\s*:\s*"(\d{4}-\d{2}-\d{2})"/;

/**
 * The file's own header date from `sadf -j` output. It sits in the host header before the
 * statistics, so only the beginning is searched: the server reads it the same way without
 * parsing megabytes of JSON on the request thread.
 */
export function sadfJsonFileDate(output: string): string | null {
  return FILE_DATE.exec(output.slice(0, 4096))?.[1] ?? null;
}
